#include "rewriter/fix_loop.h"

#include <set>
#include <unordered_set>

#include "core/line_index.h"
#include "rewriter/syntax_guard.h"
#include "rewriter/text_style.h"

namespace fxlint {

namespace {

struct FileState {
  FileFixResult result;
  std::string text;  // current
  LineEnding ending = LineEnding::Lf;
  // Parsed the first time the file has a change to make (most files of a project never
  // do): `facts` of `text`, and the error count of the original text.
  bool parsed = false;
  size_t original_errors = 0;
  SyntaxFacts facts;
  bool frozen = false;  // reverted or failed: linted, never fixed again
  std::unordered_set<std::string> seen;
  int passes = 0;                    // since the last restart
  std::set<std::string> fixed_codes;  // rules whose fixes were applied since then
  std::set<std::string> blocked;     // rules whose fixes did not converge: left out
  int restarts = 0;
  std::string notes;                 // what was left out, and where
};

std::string join_codes(const std::set<std::string>& codes) {
  std::string out;
  for (const std::string& c : codes) {
    if (!out.empty()) out += ", ";
    out += c;
  }
  return out;
}

std::vector<RemainingDiagnostic> remaining_of(const std::vector<Diagnostic>& diagnostics,
                                              const std::vector<SkippedFix>& skipped,
                                              const std::vector<size_t>& applied,
                                              SkipReason applied_reason) {
  std::vector<RemainingDiagnostic> out;
  out.reserve(diagnostics.size());
  for (const Diagnostic& d : diagnostics) out.push_back({d, std::nullopt});
  for (const SkippedFix& s : skipped) out[s.diagnostic].not_applied = s.reason;
  for (size_t i : applied) out[i].not_applied = applied_reason;
  return out;
}

void parse_original(FileState& f) {
  if (f.parsed) return;
  f.facts = syntax_facts(f.text);
  f.original_errors = f.facts.error_count;
  f.parsed = true;
}

void revert(FileState& f, FixStatus status, std::string error) {
  f.frozen = true;
  f.text = f.result.original;
  keep_original(f.result, status, std::move(error));
}

// What makes a candidate text unacceptable; empty when it is fine.
std::string rejection(const FileState& f, const SyntaxFacts& after, std::span<const TextRange> exempt) {
  if (after.error_count > f.original_errors) return "would leave the file unparsable";
  std::vector<std::string> lost = lost_comments(f.facts, after, exempt);
  if (!lost.empty()) return "would drop the comment `" + lost.front() + "`";
  return {};
}

// Names the fixes of one pass that are rejected on their own.
std::string culprits(const FileState& f, const std::vector<Diagnostic>& diagnostics,
                     const std::vector<size_t>& applied, FixMode mode) {
  LineIndex lines(f.text);
  std::string named;
  for (size_t i : applied) {
    std::span<const Diagnostic> one(&diagnostics[i], 1);
    ApplyResult alone = apply_fixes(f.text, one, mode, f.ending);
    TextRange exempt[] = {diagnostics[i].range};
    if (rejection(f, syntax_facts(alone.text), exempt).empty()) continue;
    SourceLocation at = lines.location(diagnostics[i].range.start);
    if (!named.empty()) named += "; ";
    named += diagnostics[i].code + " at " + std::to_string(at.row) + ":" +
             std::to_string(at.column) + " (\"" + diagnostics[i].fix->title + "\")";
  }
  if (named.empty()) {
    std::set<std::string> codes;
    for (size_t i : applied) codes.insert(diagnostics[i].code);
    return "the fixes of " + join_codes(codes) + " together";
  }
  return "the fix for " + named;
}

}  // namespace

void keep_original(FileFixResult& result, FixStatus status, std::string error) {
  result.fixed = result.original;
  result.status = status;
  result.applied.clear();
  result.error = std::move(error);
  result.remaining = result.unfixed;
}

std::vector<FileFixResult> fix_until_stable(std::vector<FixInput> files, const LintFunction& lint,
                                            const FixLoopOptions& options) {
  std::vector<FileState> state(files.size());
  std::vector<std::string> texts(files.size());
  for (size_t i = 0; i < files.size(); ++i) {
    FileState& f = state[i];
    f.result.path = std::move(files[i].path);
    f.result.original = std::move(files[i].text);
    f.result.fixed = f.result.original;
    f.text = f.result.original;
    f.ending = detect_line_ending(f.text);
    f.seen.insert(f.text);
    if (i < options.blocked.size()) f.blocked = options.blocked[i];
  }

  for (int pass = 1;; ++pass) {
    for (size_t i = 0; i < state.size(); ++i) texts[i] = state[i].text;
    std::vector<std::vector<Diagnostic>> diagnostics = lint(texts);
    diagnostics.resize(state.size());
    bool changed = false;

    for (size_t i = 0; i < state.size(); ++i) {
      FileState& f = state[i];
      if (f.frozen) continue;
      f.result.passes = pass;
      ++f.passes;
      std::vector<Diagnostic> without_blocked;
      if (!f.blocked.empty()) {
        without_blocked = diagnostics[i];
        for (Diagnostic& d : without_blocked) {
          if (f.blocked.count(d.code)) d.fix.reset();
        }
      }
      const std::vector<Diagnostic>& diags = f.blocked.empty() ? diagnostics[i] : without_blocked;
      ApplyResult r = apply_fixes(f.text, diags, options.mode, f.ending);
      if (r.text != f.text) parse_original(f);
      bool refused = f.original_errors > 0;
      for (const Diagnostic& d : diags) refused = refused || (pass == 1 && d.code == "FX900");
      if (refused) {
        // Not rewritten: the analysis of code the parser only half understood
        // (an escape hatch it could not see, say) is no base for edits.
        f.result.remaining = f.result.unfixed = remaining_of(diags, r.skipped, r.applied, SkipReason::SyntaxError);
        f.frozen = true;
        continue;
      }
      if (pass == 1) f.result.unfixed = remaining_of(diags, r.skipped, r.applied, SkipReason::Reverted);
      if (r.text == f.text) {
        f.result.remaining = remaining_of(diags, r.skipped, r.applied, SkipReason::NoChange);
        continue;
      }

      std::set<std::string> codes;
      for (size_t a : r.applied) codes.insert(diags[a].code);
      // Rules still fixing at the pass bound: when other rules fixed something
      // too, start the file again without them, so that the rest is still fixed.
      // (Fixes that undo each other leave the file: no one of them is to blame.)
      auto restart_without = [&](const std::string& why) {
        bool others = false;
        for (const std::string& c : f.fixed_codes) others = others || !codes.count(c);
        if (!others || f.restarts >= 3) return false;
        LineIndex lines(f.text);
        std::string named;
        for (size_t a : r.applied) {
          SourceLocation at = lines.location(diags[a].range.start);
          if (!named.empty()) named += ", ";
          named += diags[a].code + " at " + std::to_string(at.row) + ":" + std::to_string(at.column);
        }
        f.notes += (f.notes.empty() ? "" : "\n") + f.result.path + ": the fix for " + named + " " + why +
                   "; left out, and the file's other fixes applied";
        f.blocked.insert(codes.begin(), codes.end());
        ++f.restarts;
        f.text = f.result.original;
        f.facts = syntax_facts(f.text);
        f.seen = {f.text};
        f.passes = 0;
        f.fixed_codes.clear();
        f.result.applied.clear();
        f.result.fixed = f.result.original;
        f.result.status = FixStatus::Unchanged;
        changed = true;
        return true;
      };
      if (f.passes > options.max_passes) {
        if (restart_without("did not converge after " + std::to_string(options.max_passes) + " passes")) continue;
        revert(f, FixStatus::NotConverged,
               f.result.path + ": fixes did not converge after " +
                   std::to_string(options.max_passes) + " passes (rules still fixing: " +
                   join_codes(codes) + "); the file was left as it was");
        continue;
      }
      SyntaxFacts after = syntax_facts(r.text);
      std::vector<TextRange> exempt;
      for (size_t a : r.applied) exempt.push_back(diags[a].range);
      if (std::string why = rejection(f, after, exempt); !why.empty()) {
        revert(f, FixStatus::Reverted,
               f.result.path + ": " + culprits(f, diags, r.applied, options.mode) + " " + why +
                   "; the file was left as it was");
        continue;
      }
      if (!f.seen.insert(r.text).second) {
        revert(f, FixStatus::NotConverged,
               f.result.path + ": fixes undo each other and do not converge (rules: " +
                   join_codes(codes) + "); the file was left as it was");
        continue;
      }
      for (size_t a : r.applied) {
        const Fix& fix = *diags[a].fix;
        f.result.applied.push_back({diags[a].code, fix.title, fix.applicability, pass});
        f.fixed_codes.insert(diags[a].code);
      }
      f.text = std::move(r.text);
      f.facts = std::move(after);
      f.result.fixed = f.text;
      f.result.status = FixStatus::Fixed;
      changed = true;
    }
    if (!changed) break;
  }

  std::vector<FileFixResult> out;
  out.reserve(state.size());
  for (FileState& f : state) {
    if (!f.notes.empty() && f.result.error.empty()) f.result.error = f.notes;
    out.push_back(std::move(f.result));
  }
  return out;
}

}  // namespace fxlint
