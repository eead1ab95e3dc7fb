// rules/rule_table.def is the only list of rules; everything else a rule needs
// is held to it here: its doc (with the sections every doc has), its fixtures,
// a .fixed.py and an equivalence case exactly when it has a rewriting fix, its
// row in docs/rules.md, its check file, and the codes the capture names.
//
// The [files] cases read the .def as text from FXLINT_REGISTRY_ROOT (default:
// the source tree), so scripts/new_rule.py's test can run them on a scaffolded
// copy; the [table] cases tie that text to the compiled registry and checks.
#include "tests/support/catch.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "rules/check.h"
#include "rules/checker.h"
#include "rules/registry.h"
#include "tests/support/fixture_file.h"

namespace fs = std::filesystem;
using namespace fxlint;
using namespace fxlint::test;

namespace {

// One row of rule_table.def as written.
struct Row {
  std::string code, name;
  std::string severity[3];  // "error", "warning", "off", by Target
  std::string fix;          // fix_availability_name(): "none", "display-only", ...
  std::string check;        // stem of checks/<stem>.cpp; "" for NO_CHECK
  std::string summary;
  friend bool operator==(const Row&, const Row&) = default;
};

std::ostream& operator<<(std::ostream& out, const Row& r) {
  return out << r.code << " " << r.name << " " << r.severity[0] << "/" << r.severity[1] << "/" << r.severity[2]
             << " fix=" << r.fix << " check=" << r.check << " \"" << r.summary << "\"";
}

fs::path root() {
  const char* env = std::getenv("FXLINT_REGISTRY_ROOT");
  return env && *env ? fs::path(env) : fs::path(FXLINT_SOURCE_DIR);
}

std::string severity_word(char letter) {
  return letter == 'E' ? "error" : letter == 'W' ? "warning" : "off";
}

std::string fix_word(const std::string& token) {
  if (token == "None") return fix_availability_name(FixAvailability::None);
  if (token == "DisplayOnly") return fix_availability_name(FixAvailability::DisplayOnly);
  if (token == "Safe") return fix_availability_name(FixAvailability::Safe);
  if (token == "Unsafe") return fix_availability_name(FixAvailability::Unsafe);
  return fix_availability_name(FixAvailability::SafeOrUnsafe);
}

// The rows of a rule_table.def; every line starting with RULE( must parse.
std::vector<Row> parse_table(const fs::path& def, std::vector<std::string>& bad_lines) {
  static const std::regex row_re(
      R"re(^RULE\((FX[0-9]{3}), *"([a-z][a-z0-9-]*)", *([EWO]), *([EWO]), *([EWO]), *)re"
      R"re((None|DisplayOnly|Safe|Unsafe|SafeOrUnsafe), *(?:CHECKED_BY\(([a-z][a-z0-9_]*)\)|NO_CHECK), *"(.+)"\) *$)re");
  std::vector<Row> rows;
  std::istringstream in(read_file(def));
  std::string line;
  while (std::getline(in, line)) {
    if (!line.starts_with("RULE(")) continue;
    std::smatch m;
    if (!std::regex_match(line, m, row_re)) {
      bad_lines.push_back(line);
      continue;
    }
    rows.push_back({m[1], m[2], {severity_word(m.str(3)[0]), severity_word(m.str(4)[0]), severity_word(m.str(5)[0])},
                    fix_word(m[6]), m[7], m[8]});
  }
  return rows;
}

std::vector<std::string> unparsed_rows;

const std::vector<Row>& rows() {
  static const std::vector<Row> parsed = parse_table(root() / "rules" / "rule_table.def", unparsed_rows);
  return parsed;
}

bool rewrites(const std::string& fix) { return fix == "safe" || fix == "unsafe" || fix == "safe / unsafe"; }

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) out.push_back(line);
  return out;
}

// A rule's fixtures: CODE.py and CODE_<variant>.py (not the .fixed.py).
std::vector<fs::path> fixtures_of(const std::string& code) {
  std::vector<fs::path> out;
  fs::path dir = root() / "tests" / "fixtures" / "rules";
  if (!fs::is_directory(dir)) return out;
  for (const auto& e : fs::directory_iterator(dir)) {
    std::string f = e.path().filename().string();
    if (f.ends_with(".fixed.py") || !f.ends_with(".py")) continue;
    if (f == code + ".py" || f.starts_with(code + "_")) out.push_back(e.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

// A doc's "## " headings outside code blocks, with the text under each.
struct Section {
  std::string title;
  std::string body;
};

std::vector<Section> sections_of(const std::vector<std::string>& lines) {
  std::vector<Section> out;
  bool in_code = false;
  for (size_t i = 1; i < lines.size(); ++i) {
    const std::string& l = lines[i];
    if (l.starts_with("```")) in_code = !in_code;
    if (!in_code && l.starts_with("## ")) {
      out.push_back({l.substr(3), ""});
    } else if (!out.empty()) {
      out.back().body += l + "\n";
    }
  }
  return out;
}

// The sections every rule doc has, in this order ("Options" and "See also"
// may follow where a rule has them).
const std::vector<std::string> kDocSections = {"What it does", "Why is this bad", "Example", "Use instead",
                                               "Fix safety"};

// How the "Fix safety" section opens for each value of the fix column.
bool fix_safety_agrees(const std::string& fix, const std::string& body) {
  std::string text = body.substr(std::min(body.find_first_not_of(" \n"), body.size()));
  if (fix == "none") return text.starts_with("No fix");
  if (fix == "display-only") return text.starts_with("Display-only");
  if (fix == "safe") return text.starts_with("Safe");
  if (fix == "unsafe") return text.starts_with("Unsafe");
  return text.find("Safe") != std::string::npos && text.find("unsafe") != std::string::npos;
}

// docs/rules.md's catalog row for a rule.
std::string catalog_row(const Row& r) {
  return "| [" + r.code + "](../rules/docs/" + r.code + ".md) | `" + r.name + "` | " + r.summary + " | " +
         r.severity[0] + " | " + r.severity[1] + " | " + r.severity[2] + " | " + r.fix + " |";
}

std::set<std::string> codes_in(const std::string& text, const std::regex& re) {
  std::set<std::string> out;
  for (std::sregex_iterator it(text.begin(), text.end(), re), end; it != end; ++it) out.insert((*it)[1]);
  return out;
}

std::set<std::string> table_codes() {
  std::set<std::string> out;
  for (const Row& r : rows()) out.insert(r.code);
  return out;
}

}  // namespace

TEST_CASE("the table's rows parse; codes and names are unique and in order", "[files]") {
  REQUIRE_FALSE(rows().empty());
  for (const std::string& line : unparsed_rows) FAIL_CHECK("rule_table.def row does not parse: " << line);
  std::set<std::string> names;
  for (size_t i = 0; i < rows().size(); ++i) {
    INFO(rows()[i]);
    CHECK(names.insert(rows()[i].name).second);
    if (i > 0) CHECK(rows()[i - 1].code < rows()[i].code);
  }
}

TEST_CASE("every rule has a doc with the fixed sections", "[files]") {
  for (const Row& r : rows()) {
    DYNAMIC_SECTION(r.code) {
      fs::path path = root() / "rules" / "docs" / (r.code + ".md");
      INFO(path.string());
      REQUIRE(fs::is_regular_file(path));
      std::vector<std::string> lines = lines_of(read_file(path));
      REQUIRE_FALSE(lines.empty());
      CHECK(lines[0] == "# " + r.code + " " + r.name);
      std::vector<Section> sections = sections_of(lines);
      size_t next = 0;  // the required sections come in kDocSections' order
      for (const std::string& want : kDocSections) {
        auto it = std::find_if(sections.begin() + static_cast<long>(std::min(next, sections.size())), sections.end(),
                               [&](const Section& s) { return s.title == want; });
        INFO("section ## " << want);
        REQUIRE(it != sections.end());
        next = static_cast<size_t>(it - sections.begin()) + 1;
        CHECK(it->body.find_first_not_of(" \n") != std::string::npos);
        if (want == "Example" || want == "Use instead") CHECK(it->body.find("```python") != std::string::npos);
        if (want == "Fix safety") {
          INFO("the fix column says " << r.fix << "; the section says: " << it->body);
          CHECK(fix_safety_agrees(r.fix, it->body));
        }
      }
    }
  }
}

TEST_CASE("every rule has a fixture that marks it", "[files]") {
  for (const Row& r : rows()) {
    DYNAMIC_SECTION(r.code) {
      std::vector<fs::path> fixtures = fixtures_of(r.code);
      INFO("tests/fixtures/rules/" << r.code << ".py or " << r.code << "_*.py");
      REQUIRE_FALSE(fixtures.empty());
      bool marked = false;
      for (const fs::path& f : fixtures) {
        for (const auto& [line, codes] : expected_codes(read_file(f))) marked = marked || codes.count(r.code);
      }
      INFO("no line of the fixtures ends in `# expect: " << r.code << "`");
      CHECK(marked);
    }
  }
}

TEST_CASE("a .fixed.py and an equivalence case exist exactly for the rules that rewrite", "[files]") {
  fs::path dir = root() / "tests" / "fixtures" / "rules";
  std::string cases = read_file(dir / "equivalence" / "run.py");
  REQUIRE_FALSE(cases.empty());
  // CASES = { "FX103": [...], ... } in equivalence/run.py.
  std::set<std::string> with_case = codes_in(cases, std::regex(R"re(\n    "(FX[0-9]{3})": \[)re"));
  for (const Row& r : rows()) {
    DYNAMIC_SECTION(r.code) {
      INFO(r);
      CHECK(fs::exists(dir / (r.code + ".fixed.py")) == rewrites(r.fix));
      INFO("CASES entry in tests/fixtures/rules/equivalence/run.py");
      CHECK(with_case.count(r.code) == (rewrites(r.fix) ? 1u : 0u));
    }
  }
  // No leftovers of a rule that is gone.
  std::set<std::string> codes = table_codes();
  for (const std::string& c : with_case) {
    INFO("equivalence case for " << c);
    CHECK(codes.count(c));
  }
  for (const auto& e : fs::directory_iterator(dir)) {
    std::string f = e.path().filename().string();
    if (!f.ends_with(".py")) continue;
    INFO("fixture " << f);
    CHECK(codes.count(f.substr(0, 5)));
  }
}

TEST_CASE("docs/rules.md's catalog is the table", "[files]") {
  std::vector<std::string> doc_rows;
  for (const std::string& l : lines_of(read_file(root() / "docs" / "rules.md"))) {
    if (l.starts_with("| [FX")) doc_rows.push_back(l);
  }
  std::vector<std::string> want;
  for (const Row& r : rows()) want.push_back(catalog_row(r));
  for (size_t i = 0; i < std::max(want.size(), doc_rows.size()); ++i) {
    INFO("docs/rules.md catalog row " << i + 1);
    CHECK((i < doc_rows.size() ? doc_rows[i] : "(missing)") == (i < want.size() ? want[i] : "(none)"));
  }
}

TEST_CASE("each check file reports exactly the rules that name it", "[files]") {
  std::map<std::string, std::set<std::string>> named;  // stem -> codes
  for (const Row& r : rows()) {
    if (!r.check.empty()) named[r.check].insert(r.code);
  }
  fs::path dir = root() / "rules" / "checks";
  for (const auto& e : fs::directory_iterator(dir)) {
    if (e.path().extension() != ".cpp") continue;
    std::string stem = e.path().stem().string();
    INFO("rules/checks/" << stem << ".cpp is not named by any row's CHECKED_BY");
    CHECK(named.count(stem));
  }
  for (const auto& [stem, codes] : named) {
    DYNAMIC_SECTION(stem) {
      fs::path file = dir / (stem + ".cpp");
      INFO(file.string());
      REQUIRE(fs::is_regular_file(file));
      std::string text = read_file(file);
      CHECK(text.find("std::unique_ptr<Check> make_" + stem + "(") != std::string::npos);
      // A check is run when one of its rules is on, so every rule it reports must name it.
      CHECK(codes_in(text, std::regex(R"(RuleId::(FX[0-9]{3}))")) == codes);
    }
  }
}

TEST_CASE("every FX code the capture names is in the table", "[files]") {
  fs::path dir = root() / "capture";
  REQUIRE(fs::is_directory(dir));
  std::set<std::string> codes = table_codes();
  std::regex code_re(R"(\b(FX[0-9]{3})\b)");
  size_t seen = 0;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    std::string ext = e.path().extension().string();
    if (!e.is_regular_file() || (ext != ".py" && ext != ".cpp" && ext != ".h")) continue;
    for (const std::string& c : codes_in(read_file(e.path()), code_re)) {
      ++seen;
      INFO(e.path().string() << " names " << c);
      CHECK(codes.count(c));
    }
  }
  CHECK(seen > 0);
}

TEST_CASE("the .def as written is the compiled registry", "[table]") {
  std::vector<std::string> bad;
  std::vector<Row> parsed = parse_table(fs::path(FXLINT_SOURCE_DIR) / "rules" / "rule_table.def", bad);
  CHECK(bad.empty());
  auto all = all_rules();
  REQUIRE(parsed.size() == all.size());
  for (size_t i = 0; i < all.size(); ++i) {
    const RuleInfo& r = all[i];
    Row compiled{std::string(r.code),
                 std::string(r.name),
                 {severity_name(r.severity[0]), severity_name(r.severity[1]), severity_name(r.severity[2])},
                 fix_availability_name(r.fix),
                 std::string(r.check),
                 std::string(r.summary)};
    CHECK(parsed[i] == compiled);
    INFO(r.code << ": the embedded doc");
    CHECK_FALSE(r.doc.empty());
  }
}

TEST_CASE("check_factories: one entry per check, with the rules that name it", "[table]") {
  std::vector<std::string> stems;
  std::map<std::string, std::vector<RuleId>> rules_of;
  for (const RuleInfo& r : all_rules()) {
    if (r.check.empty()) continue;
    std::string stem(r.check);
    if (!rules_of.count(stem)) stems.push_back(stem);
    rules_of[stem].push_back(r.id);
  }
  const auto& entries = check_factories();
  REQUIRE(entries.size() == stems.size());
  for (size_t i = 0; i < entries.size(); ++i) {
    INFO(stems[i]);
    CHECK(entries[i].rules == rules_of[stems[i]]);
    CHECK(entries[i].make != nullptr);
  }
}

TEST_CASE("the fix column is what the checks offer on the fixtures", "[table]") {
  for (const RuleInfo& r : all_rules()) {
    std::string code(r.code);
    DYNAMIC_SECTION(code) {
      std::set<Applicability> offered;
      bool any_fix = false;
      for (const fs::path& f : fixtures_of(code)) {
        std::string text = read_file(f);
        Target target = fixture_target(text);
        SourceInput input{f.string(), f.stem().string(), text, default_rules(target), target};
        input.enabled.set(static_cast<size_t>(r.id));
        input.enabled.set(static_cast<size_t>(RuleId::FX901));
        std::vector<SourceInput> inputs{input};
        auto result = check_fixtures(inputs);
        for (const Diagnostic& d : result[0]) {
          if (d.code != code || !d.fix) continue;
          any_fix = true;
          offered.insert(d.fix->applicability);
        }
      }
      bool safe = offered.count(Applicability::Safe), unsafe = offered.count(Applicability::Unsafe);
      INFO("fix column: " << fix_availability_name(r.fix) << "; the fixtures get safe fixes: " << safe
                          << ", unsafe fixes: " << unsafe << ", any fix: " << any_fix);
      switch (r.fix) {
        case FixAvailability::None: CHECK_FALSE(any_fix); break;
        case FixAvailability::DisplayOnly: CHECK((!safe && !unsafe)); break;
        case FixAvailability::Safe: CHECK((safe && !unsafe)); break;
        case FixAvailability::Unsafe: CHECK((unsafe && !safe)); break;
        case FixAvailability::SafeOrUnsafe: CHECK((safe && unsafe)); break;
      }
    }
  }
}
