#pragma once
// Replaces a file's contents so that readers see the old bytes or the new ones,
// never a mix: a temporary file in the same directory, fsync, then rename over
// the original, keeping its owner (when allowed) and permission bits, setuid and
// setgid included. A symlink is followed: its target is rewritten and the link
// stays. A read-only file is refused. The rename gives the path a new inode, so
// other hard links to the file keep the old contents. Temporary files left by a
// process that was killed are removed by the next write in their directory.
#include <optional>
#include <string>
#include <string_view>

namespace fxlint {

// nullopt on success; otherwise an error that names `path`, in which case the
// file is left exactly as it was. With `expected`, the file must still hold
// exactly those bytes (what the caller read) right before it is replaced: a
// change made on disk in the meantime is never overwritten.
std::optional<std::string> write_file_atomically(const std::string& path, std::string_view bytes,
                                                 std::optional<std::string_view> expected = std::nullopt);

}  // namespace fxlint
