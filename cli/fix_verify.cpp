#include "cli/fix_verify.h"

#include <stdlib.h>

#include <algorithm>
#include <fstream>
#include <optional>
#include <string_view>
#include <utility>

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

// The last non-empty line of a process's stderr, without the capture's prefix.
std::string last_line(const std::string& text) {
  std::string trimmed = text;
  while (!trimmed.empty() && (trimmed.back() == '\n' || trimmed.back() == ' ')) trimmed.pop_back();
  size_t pos = trimmed.rfind('\n');
  std::string line = pos == std::string::npos ? trimmed : trimmed.substr(pos + 1);
  constexpr std::string_view kPrefix = "fxlint_capture: error: ";
  if (line.starts_with(kPrefix)) line.erase(0, kPrefix.size());
  return line;
}

// Hash randomization reorders sets of strings: both eager runs of a target
// get the same hash seed (the user's own, unless unset or "random").
class FixedHashSeed {
 public:
  FixedHashSeed() {
    const char* old = std::getenv("PYTHONHASHSEED");
    if (old && std::string_view(old) != "random") return;
    if (old) old_ = old;
    set_ = ::setenv("PYTHONHASHSEED", "0", 1) == 0;
  }
  ~FixedHashSeed() {
    if (!set_) return;
    if (old_) ::setenv("PYTHONHASHSEED", old_->c_str(), 1);
    else ::unsetenv("PYTHONHASHSEED");
  }
  FixedHashSeed(const FixedHashSeed&) = delete;
  FixedHashSeed& operator=(const FixedHashSeed&) = delete;

 private:
  bool set_ = false;
  std::optional<std::string> old_;
};

std::vector<std::string> eager_args(const VerifyJob& job, const std::string& mode, const fs::path& record) {
  std::vector<std::string> args = {"--eager-output", job.target};
  args.insert(args.end(), job.inputs.begin(), job.inputs.end());
  args.insert(args.end(), {mode, record.string()});
  return args;
}

// What `--eager-output ... --against` said about the fixed code of `shown`.
EagerCheck eager_check(const ProcessResult& run, const std::string& shown) {
  EagerCheck check;
  const std::string changed = "the fix changed the eager output of " + shown + ": ";
  if (run.exit_code == 0 || run.exit_code == 1) {
    try {
      // Only the comparison's JSON counts (a target that ends the process itself prints none).
      nlohmann::json result = nlohmann::json::parse(run.out);
      if (run.exit_code == 0 && result.value("equal", false)) {
        check.compared = true;
        return check;
      }
      std::string summary = result.value("summary", std::string());
      if (summary.empty()) {
        for (const auto& d : result.value("differences", nlohmann::json::array())) {
          if (d.is_string()) summary += (summary.empty() ? "" : "; ") + d.get<std::string>();
        }
      }
      check.compared = check.changed = true;
      check.message = changed + (summary.empty() ? std::string("the outputs differ") : summary);
      return check;
    } catch (const nlohmann::json::exception&) {
      // not a comparison: the run itself failed (below)
    }
  }
  if (run.exit_code == -1 && (run.err.find("did not finish within") != std::string::npos ||
                              run.err.find("killed by signal") != std::string::npos)) {
    // Stopped at the timeout, or crashed: the original ran to the end.
    check.compared = check.changed = true;
    check.message = changed + "it no longer runs to the end: " + last_line(run.err);
    return check;
  }
  std::string why = last_line(run.err);
  check.message = "the eager run exited with status " + std::to_string(run.exit_code) + (why.empty() ? "" : ": " + why);
  return check;
}

}  // namespace

bool FixVerification::passed() const {
  return std::all_of(results.begin(), results.end(),
                     [](const VerifyResult& r) { return r.status == VerifyStatus::Passed; });
}

// The eager outputs of the unfixed project, one record per target.
struct FixVerifier::Baseline {
  TemporaryDirectory records;
  std::vector<fs::path> record;                      // where each target's is saved
  std::vector<std::optional<std::string>> problem;   // why it could not be recorded
};

FixVerifier::FixVerifier(CaptureInstall install, const Config& project, std::vector<NestedVerifyTargets> nested,
                         std::optional<std::string> backend)
    : install_(std::move(install)),
      root_(project.root),
      verify_(project.verify),
      nested_(std::move(nested)),
      backend_(std::move(backend)) {}

FixVerifier::~FixVerifier() = default;

std::vector<VerifyJob> FixVerifier::jobs_in(const fs::path& copy) const {
  std::vector<VerifyJob> jobs = config_verify_jobs(verify_, copy, std::string("strict"), backend_);
  for (const NestedVerifyTargets& n : nested_) {
    std::vector<VerifyJob> more =
        config_verify_jobs(n.verify, copy / n.root.lexically_relative(root_), std::string("strict"), backend_);
    jobs.insert(jobs.end(), more.begin(), more.end());
  }
  for (VerifyJob& job : jobs) job.onnx.reset();  // no model is written from a trial copy
  return jobs;
}

const FixVerifier::Baseline& FixVerifier::baseline() {
  if (baseline_) return *baseline_;
  auto made = std::make_unique<Baseline>();
  {
    // The original runs in an unfixed copy, like the fixed code (same path
    // lengths, nothing written into the project).
    TemporaryDirectory original;
    copy_project(root_, original.path());
    std::vector<VerifyJob> jobs = jobs_in(original.path());
    FixedHashSeed seed;
    for (size_t i = 0; i < jobs.size(); ++i) {
      fs::path record = made->records.path() / ("target-" + std::to_string(i) + ".pt");
      ProcessResult run = run_capture(install_, eager_args(jobs[i], "--save", record), jobs[i].cwd);
      made->record.push_back(record);
      if (run.exit_code == 0) {
        made->problem.emplace_back();
      } else {
        std::string why = last_line(run.err);
        made->problem.push_back("it did not run before the fixes (status " + std::to_string(run.exit_code) + ")" +
                                (why.empty() ? "" : ": " + why));
      }
    }
  }
  baseline_ = std::move(made);
  return *baseline_;
}

FixVerification FixVerifier::verify(std::span<const FixedFile> files) {
  std::string key;
  for (const FixedFile& f : files) {
    std::string path = f.path.string();
    key += std::to_string(path.size()) + ':' + path + std::to_string(f.bytes.size()) + ':' + f.bytes;
  }
  if (auto found = done_.find(key); found != done_.end()) return found->second;
  FixVerification verification = run(files);
  done_.emplace(std::move(key), verification);
  return verification;
}

FixVerification FixVerifier::run(std::span<const FixedFile> files) {
  TemporaryDirectory copy;
  FixVerification verification;
  verification.copy_root = copy.path();
  copy_project(root_, copy.path());
  bool fixed_in_copy = false;
  for (const FixedFile& f : files) {
    fs::path relative = f.path.lexically_relative(root_);
    if (relative.empty() || *relative.begin() == "..") {
      verification.outside.push_back(f.path);
      continue;
    }
    fs::create_directories((copy.path() / relative).parent_path());
    write_bytes(copy.path() / relative, f.bytes);
    fixed_in_copy = true;
  }
  std::vector<VerifyJob> jobs = jobs_in(copy.path());
  verification.results = verify_all(install_, jobs);
  verification.eager.resize(jobs.size());
  // A nested config's targets are shown from the project's root.
  for (size_t i = 0; i < jobs.size(); ++i) {
    fs::path dir = jobs[i].cwd.lexically_relative(copy.path());
    if (!dir.empty() && dir != ".") verification.results[i].job.target = (dir / jobs[i].target).generic_string();
  }
  if (!fixed_in_copy) return verification;  // the copy is the original: the same eager outputs

  const Baseline& before = baseline();
  FixedHashSeed seed;
  for (size_t i = 0; i < jobs.size(); ++i) {
    EagerCheck& check = verification.eager[i];
    if (before.problem[i]) {
      check.message = *before.problem[i];
      continue;
    }
    ProcessResult run = run_capture(install_, eager_args(jobs[i], "--against", before.record[i]), jobs[i].cwd);
    check = eager_check(run, verification.results[i].job.target);
    if (!check.changed) continue;
    VerifyResult& result = verification.results[i];
    if (result.status == VerifyStatus::Passed) result.status = VerifyStatus::Failed;
    result.message += (result.message.empty() ? "" : "; ") + check.message;
  }
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
