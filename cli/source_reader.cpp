#include "cli/source_reader.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "core/parallel.h"

namespace fxlint::cli {

namespace {

std::string errno_message(int err) {
  std::string m = std::strerror(err);
  if (!m.empty()) m[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(m[0])));
  return "cannot read file: " + m;
}

}  // namespace

std::optional<std::string> read_whole_file(const std::filesystem::path& file, std::string& out) {
  // O_NONBLOCK: opening a FIFO must not wait for a writer. It is refused
  // below, like every file that is not a regular one.
  int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return errno_message(errno);
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    int err = errno;
    ::close(fd);
    return errno_message(err);
  }
  if (S_ISDIR(st.st_mode)) {
    ::close(fd);
    return errno_message(EISDIR);
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd);
    return "cannot read file: not a regular file (a device, FIFO or socket)";
  }
  auto too_big = [] {
    return "cannot read file: larger than " + std::to_string(kMaxSourceBytes >> 20) + " MiB, the most fxlint analyzes";
  };
  if (static_cast<uint64_t>(st.st_size) > kMaxSourceBytes) {
    ::close(fd);
    return too_big();
  }
  out.clear();
  out.reserve(static_cast<size_t>(st.st_size));
  char buf[65536];
  for (;;) {
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0) {
      if (errno == EINTR) continue;
      int err = errno;
      ::close(fd);
      return errno_message(err);
    }
    if (n == 0) break;
    out.append(buf, static_cast<size_t>(n));
    if (out.size() > kMaxSourceBytes) {  // grew while being read
      ::close(fd);
      out.clear();
      return too_big();
    }
  }
  ::close(fd);
  return std::nullopt;
}

std::optional<std::string> read_stream(std::istream& in, std::string& out) {
  out.clear();
  try {
    char buf[65536];
    while (in.read(buf, sizeof buf) || in.gcount() > 0) {
      out.append(buf, static_cast<size_t>(in.gcount()));
      if (out.size() > kMaxSourceBytes) {
        out.clear();
        return "cannot read standard input: larger than " + std::to_string(kMaxSourceBytes >> 20) + " MiB";
      }
    }
  } catch (const std::exception&) {  // libstdc++ throws from underflow on a closed descriptor
    out.clear();
    return "cannot read standard input: it is closed or unreadable";
  }
  if (in.bad()) {
    out.clear();
    return "cannot read standard input: it is closed or unreadable";
  }
  return std::nullopt;
}

std::vector<SourceFile> read_source_files(std::span<const std::filesystem::path> files, unsigned jobs) {
  std::vector<SourceFile> out(files.size());
  parallel_for(files.size(), jobs, [&](size_t i) {
    out[i].path = files[i];
    out[i].error = read_whole_file(files[i], out[i].text);
  });
  return out;
}

}  // namespace fxlint::cli
