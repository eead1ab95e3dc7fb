// Reading and validating config files (see config.h).
#include <fstream>
#include <regex>
#include <sstream>

#include "cli/cli_error.h"
#include "cli/config.h"
#include "cli/name_syntax.h"
#include "cli/rule_selection.h"
#include "cli/toml_reader.h"

namespace fxlint::cli {

namespace {

toml::table parse_toml(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw ConfigError(file.string() + ": cannot read the config file");
  std::stringstream buf;
  buf << in.rdbuf();
  try {
    return toml::parse(buf.str(), file.string());
  } catch (const toml::parse_error& e) {
    const auto& at = e.source().begin;
    throw ConfigError(file.string() + ":" + std::to_string(at.line) + ":" +
                      std::to_string(at.column) + ": invalid TOML: " + std::string(e.description()));
  }
}

std::vector<std::string> selectors(const TomlReader& r, std::string_view key,
                                   const std::vector<std::string>& values) {
  for (const std::string& s : values) {
    if (!is_valid_selector(s)) {
      r.fail(r.get(key), key,
             "unknown rule selector \"" + s + "\"; expected \"ALL\", a code prefix like \"FX1\", "
             "a code like \"FX101\" or a rule name like \"tensor-item\" (see `fxlint rule --all`)");
    }
  }
  return values;
}

std::vector<PathPattern> patterns(const TomlReader& r, std::string_view key,
                                  const std::vector<std::string>& values,
                                  const std::filesystem::path& root) {
  std::vector<PathPattern> out;
  for (const std::string& v : values) {
    std::string error;
    std::optional<Glob> glob = Glob::compile(v, Glob::Star::CrossesSlash, &error);
    if (!glob) r.fail(r.get(key), key, "invalid glob \"" + v + "\": " + error);
    out.emplace_back(std::move(*glob), root);
  }
  return out;
}

std::vector<std::string> dotted_names(const TomlReader& r, std::string_view key,
                                      const std::vector<std::string>& values, bool entry_point) {
  for (const std::string& v : values) {
    bool ok = entry_point ? is_entry_point(v) : is_dotted_name(v);
    if (!ok) {
      r.fail(r.get(key), key,
             "\"" + v + "\" is not " +
                 (entry_point ? std::string("an entry point; expected \"package.module:Qualified.name\"")
                              : std::string("a dotted name; expected e.g. \"vendor.Context.compile\"")));
    }
  }
  return values;
}

// `backend = "..."`, one of kVerifyBackends.
std::optional<std::string> verify_backend(const TomlReader& r) {
  return r.choice("backend", {kVerifyBackends[0], kVerifyBackends[1], kVerifyBackends[2], kVerifyBackends[3]});
}

VerifyTarget verify_target(const TomlReader& verify, const toml::node& node, size_t index,
                           const std::string& table_backend) {
  std::string key = "targets[" + std::to_string(index) + "]";
  const toml::table* t = node.as_table();
  if (!t) verify.fail(&node, key, "expected a table with `target` and `inputs`, got " + toml_type_name(node));
  TomlReader r(*t, verify.file(), verify.full_key(key));
  r.reject_unknown_keys({"target", "inputs", "factory", "mode", "backend", "onnx"});
  VerifyTarget v;
  std::optional<std::string> target = r.string("target");
  if (!target) verify.fail(&node, key, "missing `target`; expected \"path/to/file.py:Qualified.name\"");
  size_t colon = target->rfind(':');
  if (colon == std::string::npos || !is_dotted_name(target->substr(colon + 1)) ||
      !target->substr(0, colon).ends_with(".py")) {
    r.fail(r.get("target"), "target",
           "\"" + *target + "\" is not a target; expected \"path/to/file.py:Qualified.name\"");
  }
  v.target = *target;
  if (auto inputs = r.string_list("inputs")) {
    for (const std::string& spec : *inputs) {
      std::string why;
      if (!is_valid_input_spec(spec, &why)) {
        r.fail(r.get("inputs"), "inputs", "invalid input spec \"" + spec + "\": " + why);
      }
    }
    v.inputs = *inputs;
  }
  v.factory = r.string("factory");
  if (v.factory && !is_entry_point(*v.factory)) {
    r.fail(r.get("factory"), "factory",
           "\"" + *v.factory + "\" is not a factory; expected \"module:make_inputs\"");
  }
  if (v.factory && r.get("inputs")) {
    r.fail(r.get("factory"), "factory", "give either `inputs` or `factory`, not both");
  }
  if (!v.factory && !r.get("inputs")) {
    verify.fail(&node, key,
                "missing `inputs` (e.g. [\"float32[2,3]\"]) or `factory` (\"module:make_inputs\")");
  }
  v.mode = r.choice("mode", {"strict", "dynamo"});
  v.backend = verify_backend(r);
  v.onnx = r.string("onnx");
  std::string backend = v.backend.value_or(table_backend);
  if (v.onnx && !backend_exports_onnx(backend)) {
    r.fail(r.get("onnx"), "onnx",
           "the \"" + backend + "\" backend writes no ONNX model; `onnx` is for the \"capture\" and \"onnx\" backends");
  }
  return v;
}

VerifyConfig verify_config(const TomlReader& r) {
  r.reject_unknown_keys({"mode", "backend", "opset", "targets"});
  VerifyConfig v;
  if (auto mode = r.choice("mode", {"strict", "dynamo"})) v.mode = *mode;
  if (auto backend = verify_backend(r)) v.backend = *backend;
  if (auto opset = r.integer("opset")) {
    if (*opset < 7 || *opset > 23) r.fail(r.get("opset"), "opset", "expected an ONNX opset from 7 to 23");
    v.opset = static_cast<int>(*opset);
  }
  if (const toml::node* targets = r.get("targets")) {
    const toml::array* arr = targets->as_array();
    if (!arr) r.fail(targets, "targets", "expected an array of tables, got " + toml_type_name(*targets));
    for (size_t i = 0; i < arr->size(); ++i) v.targets.push_back(verify_target(r, *arr->get(i), i, v.backend));
  }
  return v;
}

Config read_settings(const toml::table& table, const std::filesystem::path& file, std::string prefix) {
  TomlReader r(table, file.string(), std::move(prefix));
  r.reject_unknown_keys({"target", "torch-version", "select", "ignore", "extend-select",
                         "per-file-ignores", "exclude", "extend-exclude", "scope", "entry-points",
                         "compile-functions", "compile-decorators", "verify"});
  Config c = default_config(file.parent_path());
  c.file = file;
  if (auto t = r.choice("target", {"fx2onnx", "dynamo", "export"})) c.target = parse_target(*t);
  if (auto v = r.string("torch-version")) {
    static const std::regex version(R"(\d+\.\d+(\.\d+)?)");
    if (!std::regex_match(*v, version)) {
      r.fail(r.get("torch-version"), "torch-version",
             "\"" + *v + "\" is not a version; expected \"MAJOR.MINOR\" like \"2.1\"");
    }
    c.torch_version = v;
  }
  if (auto v = r.string_list("select")) c.select = selectors(r, "select", *v);
  if (auto v = r.string_list("extend-select")) c.extend_select = selectors(r, "extend-select", *v);
  if (auto v = r.string_list("ignore")) c.ignore = selectors(r, "ignore", *v);
  if (const toml::table* pfi = r.table("per-file-ignores")) {
    TomlReader pr(*pfi, file.string(), r.full_key("per-file-ignores"));
    for (auto&& [glob, codes] : *pfi) {
      std::string key(glob.str());
      std::optional<std::vector<std::string>> list = pr.string_list(key);
      std::vector<PathPattern> pattern = patterns(pr, key, {key}, c.root);
      c.per_file_ignores.push_back({std::move(pattern.front()), selectors(pr, key, *list)});
    }
  }
  if (auto v = r.string_list("exclude")) c.exclude = patterns(r, "exclude", *v, c.root);
  if (auto v = r.string_list("extend-exclude")) c.extend_exclude = patterns(r, "extend-exclude", *v, c.root);
  if (auto v = r.choice("scope", {"reachable", "all"})) c.scope = *v == "all" ? Scope::All : Scope::Reachable;
  if (auto v = r.string_list("entry-points")) c.entry_points = dotted_names(r, "entry-points", *v, true);
  if (auto v = r.string_list("compile-functions")) {
    c.compile_functions = dotted_names(r, "compile-functions", *v, false);
  }
  if (auto v = r.string_list("compile-decorators")) {
    c.compile_decorators = dotted_names(r, "compile-decorators", *v, false);
  }
  if (const toml::table* verify = r.table("verify")) {
    c.verify = verify_config(TomlReader(*verify, file.string(), r.full_key("verify")));
  }
  return c;
}

}  // namespace

bool pyproject_has_fxlint_table(const std::filesystem::path& file) {
  toml::table doc = parse_toml(file);
  const toml::node* tool = doc.get("tool");
  return tool && tool->is_table() && tool->as_table()->get("fxlint");
}

Config load_config_file(const std::filesystem::path& file) {
  toml::table doc = parse_toml(file);
  if (file.filename() != "pyproject.toml") {
    // As ruff does, a file of another name holds the settings at its top level; say so
    // rather than reject `tool` as an unknown key.
    if (const toml::node* tool = doc.get("tool"); tool && tool->is_table() && tool->as_table()->get("fxlint")) {
      throw ConfigError(file.string() + ": a `[tool.fxlint]` table is read from a file named pyproject.toml; in " +
                        file.filename().string() + " write the settings at the top level, without the table");
    }
    return read_settings(doc, file, "");
  }
  TomlReader top(doc, file.string(), "");
  const toml::table* tool = top.table("tool");
  const toml::table* settings = nullptr;
  if (tool) settings = TomlReader(*tool, file.string(), "tool").table("fxlint");
  if (!settings) {
    Config c = default_config(file.parent_path());
    c.file = file;
    return c;
  }
  return read_settings(*settings, file, "tool.fxlint");
}

}  // namespace fxlint::cli
