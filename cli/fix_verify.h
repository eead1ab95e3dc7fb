#pragma once
// `fxlint fix --verify`: the fixed texts are written into a temporary copy of
// the project (same relative layout, so imports resolve), and the config's
// verify targets are captured there in strict mode (or run through the
// `--backend` given) before anything real is touched.
#include <filesystem>
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

struct FixVerification {
  std::vector<VerifyResult> results;                // one per configured target
  std::vector<std::filesystem::path> outside;       // fixed files outside the project: not in the copy
  std::filesystem::path copy_root;                  // the temporary copy (removed when done)
  bool passed() const;
};

// Copies `config.root` (skipping the default-excluded directories such as
// .git and build), writes `files` into the copy and verifies every target of
// `config.verify` there with `backend` when given, else the config's: the
// capture in strict mode (without ONNX export), or a real compiler (the onnx
// backend's model goes to a temporary file). Throws ConfigError when the copy
// cannot be made.
FixVerification verify_fixed_project(const CaptureInstall& install, const Config& config,
                                     std::span<const FixedFile> files,
                                     const std::optional<std::string>& backend = std::nullopt);

// Shows paths from the copy as the original files, relative to `cwd`.
PathShower original_path_shower(const FixVerification& verification, const std::filesystem::path& root,
                                const std::filesystem::path& cwd);

}  // namespace fxlint::cli
