#pragma once
// Indentation-aware templates for multi-line Python rewrites (in the manner of
// ast-grep): a fix writes its replacement once, with 4 spaces per level, and
// these helpers place it at the target statement's column in the file's own
// indent style (tabs or N spaces), re-indenting captured source lines so their
// relative layout, comments included, is unchanged.
//
// Depends on nothing but the standard library so that rules can use it.
#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace fxlint {

struct IndentStyle {
  bool tabs = false;
  unsigned width = 4;  // spaces per level when !tabs
  std::string unit() const { return tabs ? std::string("\t") : std::string(width, ' '); }
  friend bool operator==(const IndentStyle&, const IndentStyle&) = default;
};

// The file's indent unit: tabs when blocks are indented with tabs, otherwise the
// most common step between a line ending in `:` and the line after it; 4
// spaces when the text has no indented block.
IndentStyle detect_indent_style(std::string_view text);

// The leading whitespace of the line containing byte `offset`.
std::string_view indent_at(std::string_view text, uint32_t offset);

// Moves source text from one base indentation to another: every line after the
// first that starts with `from` has that prefix replaced by `to` (the first line
// sits at the edit's position). Blank lines stay empty. nullopt when the text
// holds a triple-quoted string spanning lines, whose content the shift would change.
std::optional<std::string> rebase_indent(std::string_view text, std::string_view from,
                                         std::string_view to);

// A capture: source text and the indentation of the line its first line is on.
struct Capture {
  std::string text;
  std::string indent;
};

// Renders `pattern`, a snippet indented with 4 spaces per level whose `$NAME`
// holes take captures. Lines after the first are placed at `base` plus their
// level in `style`; a multi-line capture is rebased onto its template line's
// indentation. The first line gets no prefix: the edit replacing a statement
// starts after the statement's indentation. nullopt when a hole has no capture
// or a capture cannot be rebased.
std::optional<std::string> render_template(std::string_view pattern,
                                           const std::map<std::string, Capture>& captures,
                                           std::string_view base, IndentStyle style);

}  // namespace fxlint
