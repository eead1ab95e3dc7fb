#pragma once
// The Python environment fxlint works beside: the interpreter `verify` runs the
// bundled capture in, where that capture's package is, and which torch that
// environment has (the version fixes are written for unless the config pins one).
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "cli/config.h"

namespace fxlint::cli {

struct PythonEnvironment {
  std::filesystem::path python;       // empty when none was found
  std::string found_by;               // "FXLINT_PYTHON", "VIRTUAL_ENV", "next to fxlint", "build", "PATH"
  std::filesystem::path package_dir;  // holds fxlint_capture/; empty: the interpreter imports it itself
};

// Looked up once per process: FXLINT_PYTHON, then the active virtual
// environment ($VIRTUAL_ENV), then the interpreter installed beside the
// `fxlint` executable, then the one a developer build was configured with, then
// `python3` on PATH. The package is FXLINT_CAPTURE_PATH, the build tree's
// python/ beside the executable, or the site-packages fxlint was installed into.
const PythonEnvironment& python_environment();

struct TorchInstall {
  std::string version;            // "2.14.1+cu130"
  std::filesystem::path package;  // .../site-packages/torch
};

// The torch in python_environment()'s site-packages, read from torch/version.py
// without starting Python; nullopt when there is none.
const std::optional<TorchInstall>& installed_torch();

// Reads torch/version.py's __version__ ("2.14.1+cu130"); nullopt if absent.
std::optional<std::string> read_torch_version(const std::filesystem::path& torch_package);

// Finds the torch package of the environment `python` belongs to.
std::optional<TorchInstall> torch_of(const std::filesystem::path& python);

// The torch version fixes are written for: the config's `torch-version`, else
// the installed torch's major.minor, else "" (unknown: fixes use spellings that
// work on every torch 2.x). A pin whose major.minor differs from the installed
// torch adds a warning to `warnings` (once: a message already there is not repeated).
std::string torch_version_for(const Config& config, std::vector<std::string>* warnings);

// "2.14.1+cu130" -> "2.14"; "" when it does not start with two numbers.
std::string major_minor(std::string_view version);

}  // namespace fxlint::cli
