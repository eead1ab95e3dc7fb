#include "cli/import_context.h"

#include <algorithm>
#include <cctype>
#include <deque>
#include <set>
#include <system_error>

namespace fxlint::cli {

namespace fs = std::filesystem;

namespace {

std::string_view trim(std::string_view s) {
  size_t b = s.find_first_not_of(" \t\r\f\v");
  if (b == std::string_view::npos) return {};
  size_t e = s.find_last_not_of(" \t\r\f\v");
  return s.substr(b, e - b + 1);
}

std::vector<std::string_view> split(std::string_view s, char by) {
  std::vector<std::string_view> out;
  size_t start = 0;
  for (size_t i = 0; i <= s.size(); ++i) {
    if (i == s.size() || s[i] == by) {
      out.push_back(s.substr(start, i - start));
      start = i + 1;
    }
  }
  return out;
}

bool is_dotted_name(std::string_view s) {
  if (s.empty() || s.front() == '.' || s.back() == '.') return false;
  for (char c : s) {
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.')) return false;
  }
  return true;
}

// `a.b as c` -> `a.b`.
std::string_view without_alias(std::string_view item) {
  item = trim(item);
  size_t as = item.find(" as ");
  return trim(as == std::string_view::npos ? item : item.substr(0, as));
}

// Logical lines: a bracket or a trailing backslash continues one; comments go.
std::vector<std::string> logical_lines(std::string_view text) {
  std::vector<std::string> lines;
  std::string current;
  int depth = 0;
  for (std::string_view raw : split(text, '\n')) {
    size_t hash = raw.find('#');
    std::string_view line = hash == std::string_view::npos ? raw : raw.substr(0, hash);
    bool continued = !trim(line).empty() && trim(line).back() == '\\';
    if (continued) line = trim(line).substr(0, trim(line).size() - 1);
    for (char c : line) {
      if (c == '(' || c == '[' || c == '{') ++depth;
      if ((c == ')' || c == ']' || c == '}') && depth > 0) --depth;
    }
    current.append(line);
    current.push_back(' ');
    if (!continued && depth == 0) {
      lines.push_back(std::move(current));
      current.clear();
    }
  }
  if (!current.empty()) lines.push_back(std::move(current));
  return lines;
}

// `from ..m import x` in package "a.b.c": "a.b.m".
std::string absolute(std::string_view from, std::string_view package) {
  size_t dots = 0;
  while (dots < from.size() && from[dots] == '.') ++dots;
  if (dots == 0) return std::string(from);
  std::vector<std::string_view> parts;
  if (!package.empty()) parts = split(package, '.');
  if (dots - 1 > parts.size()) return {};
  parts.resize(parts.size() - (dots - 1));
  std::string out;
  for (std::string_view p : parts) out.append(out.empty() ? "" : ".").append(p);
  std::string_view rest = from.substr(dots);
  if (!rest.empty()) out.append(out.empty() ? "" : ".").append(rest);
  return out;
}

}  // namespace

std::vector<std::string> imported_modules(std::string_view text, std::string_view package) {
  std::vector<std::string> out;
  for (const std::string& logical : logical_lines(text)) {
    for (std::string_view statement : split(logical, ';')) {
      statement = trim(statement);
      if (statement.starts_with("import ")) {
        for (std::string_view item : split(statement.substr(7), ',')) {
          std::string_view name = without_alias(item);
          if (is_dotted_name(name)) out.emplace_back(name);
        }
      } else if (statement.starts_with("from ")) {
        size_t at = statement.find(" import ");
        if (at == std::string_view::npos) continue;
        std::string_view from = trim(statement.substr(5, at - 5));
        std::string base = absolute(from, package);
        if (base.empty() || !is_dotted_name(base)) continue;
        out.push_back(base);
        std::string_view names = trim(statement.substr(at + 8));
        if (names.starts_with('(')) names = names.substr(1);
        if (names.ends_with(')')) names.remove_suffix(1);
        for (std::string_view item : split(names, ',')) {
          std::string_view name = without_alias(item);
          if (is_dotted_name(name) && name.find('.') == std::string_view::npos) out.push_back(base + "." + std::string(name));
        }
      }
    }
  }
  return out;
}

std::vector<ImportedFile> imported_files(std::span<const SourceFile> linted, ModuleNamer& modules, size_t max_depth,
                                         size_t limit) {
  struct Root {
    fs::path dir;
    bool installed = false;          // a site-packages directory
    std::set<std::string> packages;  // there: the linted files' top-level packages
  };
  std::vector<Root> roots;
  std::set<fs::path> known;
  struct Pending {
    fs::path file;
    std::string module;  // the name it is imported by
    size_t depth;        // 1: a linted file imports it
  };
  std::deque<Pending> work;
  auto root_of = [](const fs::path& file, const std::string& module) {
    fs::path dir = file.parent_path();
    size_t up = static_cast<size_t>(std::count(module.begin(), module.end(), '.'));
    if (file.stem() == "__init__") ++up;
    for (size_t i = 0; i < up; ++i) dir = dir.parent_path();
    return dir;
  };
  for (const SourceFile& f : linted) {
    known.insert(f.path);
    std::string module = modules.name_of(f.path);
    if (module.empty() || f.error) continue;
    fs::path dir = root_of(f.path, module);
    auto it = std::find_if(roots.begin(), roots.end(), [&](const Root& r) { return r.dir == dir; });
    if (it == roots.end()) {
      std::string name = dir.filename().string();
      roots.push_back({dir, name == "site-packages" || name == "dist-packages", {}});
      it = roots.end() - 1;
    }
    it->packages.insert(module.substr(0, module.find('.')));
  }
  std::vector<ImportedFile> out;
  auto scan = [&](const fs::path& file, std::string_view text, const std::string& module, size_t depth) {
    size_t last = module.rfind('.');
    std::string package = file.stem() == "__init__" ? module : module.substr(0, last == std::string::npos ? 0 : last);
    for (const std::string& m : imported_modules(text, package)) {
      std::string top = m.substr(0, m.find('.'));
      std::string relative = m;
      std::replace(relative.begin(), relative.end(), '.', '/');
      for (const Root& r : roots) {
        if (r.installed && !r.packages.count(top)) continue;
        for (fs::path candidate : {r.dir / (relative + ".py"), r.dir / relative / "__init__.py"}) {
          std::error_code ec;
          if (known.count(candidate) || !fs::is_regular_file(candidate, ec)) continue;
          known.insert(candidate);
          work.push_back({candidate, m, depth + 1});
        }
      }
    }
  };
  for (const SourceFile& f : linted) {
    if (!f.error) scan(f.path, f.text, modules.name_of(f.path), 0);
  }
  while (!work.empty() && out.size() < limit) {
    Pending next = std::move(work.front());
    work.pop_front();
    SourceFile read{next.file, {}, {}};
    read.error = read_whole_file(next.file, read.text);
    if (read.error) continue;
    if (next.depth < max_depth) scan(next.file, read.text, next.module, next.depth);
    out.push_back({std::move(read), std::move(next.module)});
  }
  return out;
}

}  // namespace fxlint::cli
