#pragma once
// `fxlint fix --verify`: the fixed texts are written into a temporary copy of
// the project (same relative layout, so imports resolve), and the config's
// verify targets are captured there in strict mode (or run through the
// `--backend` given) before anything real is touched. Each target also runs
// eagerly (plain PyTorch, no compiler), in a process of its own, on the copy
// and on an unfixed copy of the project, with the same seed and inputs: its
// outputs, and its tensor inputs after the call, must match bit for bit.
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "cli/config.h"
#include "cli/verify_output.h"
#include "cli/verify_run.h"

namespace fxlint::cli {

struct FixedFile {
  std::filesystem::path path;  // absolute path of the original file
  std::string bytes;           // the fixed contents, encoded as they would be written
};

// The verify targets of a config other than the project's: one that governs a
// fixed file, in a directory inside the project.
struct NestedVerifyTargets {
  std::filesystem::path root;  // the config's directory (absolute), inside the project
  VerifyConfig verify;
};

// How a target's eager output on the fixed code compares with the original's.
struct EagerCheck {
  bool compared = false;  // false: nothing in the copy was fixed, or the outputs could not be compared
  bool changed = false;   // the outputs (or the inputs after the call, or the exception) differ
  std::string message;    // "the fix changed the eager output of TARGET: ...", or why it was not compared
};

struct FixVerification {
  // One per target: the project config's, then those of `NestedVerifyTargets`
  // (whose job.target is shown from the project's root).
  std::vector<VerifyResult> results;
  std::vector<EagerCheck> eager;                    // one per target, as `results`
  std::vector<std::filesystem::path> outside;       // fixed files outside the project: not in the copy
  std::filesystem::path copy_root;                  // the temporary copy (removed when done)
  bool passed() const;  // every target passed; a changed eager output fails its target
};

// Verifies fixed texts against the targets of `project` (the config that
// governs the working directory: its root is the directory copied) and of
// `nested`, with `backend` when given, else each target's own: the capture in
// strict mode (without ONNX export), or a real compiler (the onnx backend's
// model goes to a temporary file). The eager outputs of the unfixed project are
// recorded once, on first need, and every later verification is compared with
// them.
class FixVerifier {
 public:
  FixVerifier(CaptureInstall install, const Config& project, std::vector<NestedVerifyTargets> nested = {},
              std::optional<std::string> backend = std::nullopt);
  ~FixVerifier();
  FixVerifier(const FixVerifier&) = delete;
  FixVerifier& operator=(const FixVerifier&) = delete;

  // Copies the project (skipping the default-excluded directories such as .git
  // and build), writes `files` into the copy, verifies every target there and,
  // when a fixed file is in the copy, compares each target's eager output with
  // the unfixed project's. The same files verified again (bisecting often comes
  // back to a set it tried) give the same verification, without running
  // anything. Throws ConfigError when the copy cannot be made.
  FixVerification verify(std::span<const FixedFile> files);

 private:
  struct Baseline;
  FixVerification run(std::span<const FixedFile> files);
  std::vector<VerifyJob> jobs_in(const std::filesystem::path& copy) const;
  const Baseline& baseline();

  CaptureInstall install_;
  std::filesystem::path root_;
  VerifyConfig verify_;
  std::vector<NestedVerifyTargets> nested_;
  std::optional<std::string> backend_;
  std::unique_ptr<Baseline> baseline_;
  std::map<std::string, FixVerification> done_;  // by the files verified (paths and bytes)
};

// Shows paths from the copy as the original files, relative to `cwd`.
PathShower original_path_shower(const FixVerification& verification, const std::filesystem::path& root,
                                const std::filesystem::path& cwd);

}  // namespace fxlint::cli
