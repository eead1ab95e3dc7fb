#include "cli/fix_verify.h"

#include <stdlib.h>

#include <algorithm>
#include <fstream>

#include "cli/cli_error.h"
#include "cli/command_verify.h"
#include "cli/lint_run.h"

namespace fxlint::cli {

namespace fs = std::filesystem;

namespace {

// A directory removed with everything in it when the verification is done.
class TemporaryDirectory {
 public:
  TemporaryDirectory() {
    std::string pattern = (fs::temp_directory_path() / "fxlint-verify-XXXXXX").string();
    if (!::mkdtemp(pattern.data())) throw ConfigError("cannot create a temporary directory for --verify");
    path_ = pattern;
  }
  ~TemporaryDirectory() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  TemporaryDirectory(const TemporaryDirectory&) = delete;
  TemporaryDirectory& operator=(const TemporaryDirectory&) = delete;
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

bool skipped_directory(const fs::path& dir) {
  const std::vector<std::string>& names = default_excludes();
  return std::find(names.begin(), names.end(), dir.filename().string()) != names.end();
}

void copy_project(const fs::path& from, const fs::path& to) {
  std::error_code ec;
  fs::recursive_directory_iterator it(from, fs::directory_options::skip_permission_denied, ec), end;
  if (ec) throw ConfigError("cannot read " + from.string() + " to verify the fixes: " + ec.message());
  for (; it != end; it.increment(ec)) {
    if (ec) break;
    const fs::directory_entry& entry = *it;
    fs::path target = to / entry.path().lexically_relative(from);
    if (entry.is_symlink(ec)) {
      fs::copy_symlink(entry.path(), target, ec);
    } else if (entry.is_directory(ec)) {
      if (skipped_directory(entry.path())) {
        it.disable_recursion_pending();
        continue;
      }
      fs::create_directories(target, ec);
    } else if (entry.is_regular_file(ec)) {
      fs::copy_file(entry.path(), target, ec);
    }
    ec.clear();  // an unreadable file stays out of the copy; the capture reports what it misses
  }
}

void write_bytes(const fs::path& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!out) throw ConfigError("cannot write " + path.string() + " in the copy made to verify the fixes");
}

}  // namespace

bool FixVerification::passed() const {
  return std::all_of(results.begin(), results.end(),
                     [](const VerifyResult& r) { return r.status == VerifyStatus::Passed; });
}

FixVerification verify_fixed_project(const CaptureInstall& install, const Config& config,
                                     std::span<const FixedFile> files,
                                     const std::optional<std::string>& backend) {
  TemporaryDirectory copy;
  FixVerification verification;
  verification.copy_root = copy.path();
  copy_project(config.root, copy.path());
  for (const FixedFile& f : files) {
    fs::path relative = f.path.lexically_relative(config.root);
    if (relative.empty() || *relative.begin() == "..") {
      verification.outside.push_back(f.path);
      continue;
    }
    fs::create_directories((copy.path() / relative).parent_path());
    write_bytes(copy.path() / relative, f.bytes);
  }
  std::vector<VerifyJob> jobs = config_verify_jobs(config.verify, copy.path(), std::string("strict"), backend);
  for (VerifyJob& job : jobs) job.onnx.reset();  // no model is written from a trial copy
  verification.results = verify_all(install, jobs);
  return verification;
}

PathShower original_path_shower(const FixVerification& verification, const fs::path& root, const fs::path& cwd) {
  fs::path copy = verification.copy_root;
  return [copy, root, cwd](const std::string& p) {
    fs::path path(p);
    if (!path.is_absolute()) path = copy / path;
    fs::path relative = path.lexically_relative(copy);
    if (!relative.empty() && *relative.begin() != "..") path = root / relative;
    return display_path(path, cwd);
  };
}

}  // namespace fxlint::cli
