#pragma once
// Reads source files from disk, in parallel; a file that cannot be read keeps
// its place with the reason, so the other files still run.
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace fxlint::cli {

struct SourceFile {
  std::filesystem::path path;
  std::string text;
  std::optional<std::string> error;  // "cannot read file: permission denied", ...
};

// Files in the order given. `jobs` as in --jobs (0 = all cores).
std::vector<SourceFile> read_source_files(std::span<const std::filesystem::path> files, unsigned jobs);

// One file; nullopt on success, else why not.
std::optional<std::string> read_whole_file(const std::filesystem::path& file, std::string& out);

}  // namespace fxlint::cli
