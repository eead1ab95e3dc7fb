#pragma once
// Replaces a file's contents so that readers see the old bytes or the new ones,
// never a mix: a temporary file in the same directory, fsync, then rename over
// the original, keeping its permission bits. A symlink is followed: its target
// is rewritten and the link stays. A read-only file is refused.
#include <optional>
#include <string>
#include <string_view>

namespace fxlint {

// nullopt on success; otherwise an error that names `path`, in which case the
// file is left exactly as it was.
std::optional<std::string> write_file_atomically(const std::string& path, std::string_view bytes);

}  // namespace fxlint
