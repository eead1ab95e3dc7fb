#pragma once
// Reads source files from disk, in parallel; a file that cannot be read keeps
// its place with the reason, so the other files still run.
#include <cstdint>
#include <filesystem>
#include <istream>
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

// A whole stream (standard input), with the same size limit; nullopt on
// success, else why not (a closed or unreadable stream is an error, never an
// exception).
std::optional<std::string> read_stream(std::istream& in, std::string& out);

// Files in the order given. `jobs` as in --jobs (0 = all cores).
std::vector<SourceFile> read_source_files(std::span<const std::filesystem::path> files, unsigned jobs);

// The largest source file read. The analysis holds about a hundred bytes per
// source byte, so this bounds a run's memory to a few GiB per file.
inline constexpr uint64_t kMaxSourceBytes = uint64_t{64} << 20;

// One regular file of at most kMaxSourceBytes; nullopt on success, else why
// not. Devices, FIFOs and sockets are refused, never read.
std::optional<std::string> read_whole_file(const std::filesystem::path& file, std::string& out);

}  // namespace fxlint::cli
