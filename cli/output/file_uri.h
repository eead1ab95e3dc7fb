#pragma once
// `file://` URIs for absolute paths, percent-encoded (SARIF artifact locations).
#include <filesystem>
#include <string>

namespace fxlint::cli {

std::string file_uri(const std::filesystem::path& absolute);

}  // namespace fxlint::cli
