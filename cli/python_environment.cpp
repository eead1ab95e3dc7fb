#include "cli/python_environment.h"

#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <algorithm>
#include <regex>
#include <sstream>


#ifndef FXLINT_CAPTURE_PYTHON
#define FXLINT_CAPTURE_PYTHON ""
#endif

namespace fxlint::cli {

namespace fs = std::filesystem;

namespace {

bool is_executable(const fs::path& p) {
  std::error_code ec;
  return !p.empty() && fs::is_regular_file(p, ec) && ::access(p.c_str(), X_OK) == 0;
}

std::string env(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}

fs::path own_executable_dir() {
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  return ec ? fs::path() : exe.parent_path();
}

fs::path on_path(const std::string& name) {
  std::stringstream dirs(env("PATH"));
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    if (dir.empty()) continue;
    if (fs::path p = fs::path(dir) / name; is_executable(p)) return p;
  }
  return {};
}

fs::path python_in(const fs::path& bin_dir) {
  for (const char* name : {"python3", "python"}) {
    if (fs::path p = bin_dir / name; is_executable(p)) return p;
  }
  return {};
}

// The site-packages folders of the environment whose bin/ holds `python`: a
// virtual environment, a pyenv or python.org prefix, or Debian's layout.
std::vector<fs::path> site_dirs(const fs::path& python) {
  std::vector<fs::path> out;
  std::error_code ec;
  std::vector<fs::path> prefixes = {python.parent_path().parent_path()};
  fs::path resolved = fs::canonical(python, ec);
  if (!ec && resolved.parent_path().parent_path() != prefixes.front()) {
    prefixes.push_back(resolved.parent_path().parent_path());
  }
  for (const fs::path& prefix : prefixes) {
    for (const char* lib : {"lib", "lib64", "local/lib"}) {
      fs::path dir = prefix / lib;
      if (!fs::is_directory(dir, ec)) continue;
      for (const fs::directory_entry& e : fs::directory_iterator(dir, ec)) {
        std::string name = e.path().filename().string();
        if (!name.starts_with("python3")) continue;
        for (const char* leaf : {"site-packages", "dist-packages"}) {
          if (fs::is_directory(e.path() / leaf, ec)) out.push_back(e.path() / leaf);
        }
      }
    }
  }
  return out;
}

// The fxlint_capture package installed beside the executable: <prefix>/bin/fxlint
// with <prefix>/lib/python3.X/site-packages/fxlint_capture.
fs::path installed_package_dir(const fs::path& exe_dir) {
  if (exe_dir.empty()) return {};
  std::error_code ec;
  if (fs::is_regular_file(exe_dir / "python" / "fxlint_capture" / "__init__.py", ec)) return exe_dir / "python";
  for (const fs::path& site : site_dirs(exe_dir / "python3")) {
    if (fs::is_regular_file(site / "fxlint_capture" / "__init__.py", ec)) return site;
  }
  return {};
}

PythonEnvironment find_environment() {
  PythonEnvironment e;
  const fs::path exe_dir = own_executable_dir();
  if (std::string p = env("FXLINT_PYTHON"); !p.empty()) {
    e = {p, "FXLINT_PYTHON", {}};
  } else if (fs::path venv = env("VIRTUAL_ENV"); !venv.empty() && !python_in(venv / "bin").empty()) {
    e = {python_in(venv / "bin"), "VIRTUAL_ENV", {}};
  } else if (fs::path beside = python_in(exe_dir); !exe_dir.empty() && !beside.empty()) {
    e = {beside, "next to fxlint", {}};
  } else if (is_executable(FXLINT_CAPTURE_PYTHON)) {
    e = {FXLINT_CAPTURE_PYTHON, "build", {}};
  } else if (fs::path path = on_path("python3"); !path.empty()) {
    e = {path, "PATH", {}};
  }
  if (std::string dir = env("FXLINT_CAPTURE_PATH"); !dir.empty()) {
    e.package_dir = dir;
  } else {
    e.package_dir = installed_package_dir(exe_dir);
  }
  return e;
}

}  // namespace

const PythonEnvironment& python_environment() {
  static const PythonEnvironment environment = find_environment();
  return environment;
}

std::optional<std::string> read_torch_version(const fs::path& torch_package) {
  std::ifstream in(torch_package / "version.py");
  if (!in) return std::nullopt;
  static const std::regex assignment(R"(^__version__\s*(?::\s*str\s*)?=\s*['"]([^'"]+)['"])");
  std::string line;
  while (std::getline(in, line)) {
    std::smatch m;
    if (std::regex_search(line, m, assignment)) return m[1].str();
  }
  return std::nullopt;
}

namespace {

// The folders a site-packages' .pth files add to sys.path, as Python's site
// module reads them (a line that is not a comment or an import statement).
std::vector<fs::path> pth_dirs(const fs::path& site) {
  std::vector<fs::path> out;
  std::error_code ec;
  for (const fs::directory_entry& e : fs::directory_iterator(site, ec)) {
    if (e.path().extension() != ".pth") continue;
    std::ifstream in(e.path());
    std::string line;
    while (std::getline(in, line)) {
      if (!line.empty() && line.back() == '\r') line.pop_back();
      if (line.empty() || line[0] == '#' || line.starts_with("import ") || line.starts_with("import\t")) continue;
      fs::path dir = fs::path(line).is_absolute() ? fs::path(line) : site / line;
      if (fs::is_directory(dir, ec)) out.push_back(dir);
    }
  }
  return out;
}

}  // namespace

std::optional<TorchInstall> torch_of(const fs::path& python) {
  if (python.empty()) return std::nullopt;
  std::vector<fs::path> sites = site_dirs(python);
  for (size_t i = 0, n = sites.size(); i < n; ++i) {
    for (fs::path& extra : pth_dirs(sites[i])) sites.push_back(std::move(extra));
  }
  for (const fs::path& site : sites) {
    if (std::optional<std::string> v = read_torch_version(site / "torch")) return TorchInstall{*v, site / "torch"};
  }
  return std::nullopt;
}

const std::optional<TorchInstall>& installed_torch() {
  static const std::optional<TorchInstall> torch = torch_of(python_environment().python);
  return torch;
}

std::string major_minor(std::string_view version) {
  static const std::regex two_numbers(R"(^(\d+)\.(\d+))");
  std::string text(version);
  std::smatch m;
  if (!std::regex_search(text, m, two_numbers)) return "";
  return m[1].str() + "." + m[2].str();
}

std::string torch_version_for(const Config& config, std::vector<std::string>* warnings) {
  const std::optional<TorchInstall>& torch = installed_torch();
  if (!config.torch_version) return torch ? major_minor(torch->version) : "";
  if (warnings && torch && major_minor(*config.torch_version) != major_minor(torch->version)) {
    std::string message = config.file.string() + " pins torch-version = \"" + *config.torch_version +
                          "\", but the environment has torch " + torch->version + " (" +
                          torch->package.string() + "); fixes are written for " + *config.torch_version;
    if (std::find(warnings->begin(), warnings->end(), message) == warnings->end()) warnings->push_back(message);
  }
  return *config.torch_version;
}

}  // namespace fxlint::cli
