#include "rewriter/syntax_guard.h"

#include <map>

#include "analyzer/python_syntax.h"
#include "analyzer/syntax_tree.h"

namespace fxlint {

SyntaxFacts syntax_facts(std::string_view text) {
  SyntaxTree tree = SyntaxTree::parse(std::string(text));
  SyntaxFacts facts;
  // Forms CPython rejects count as errors too: a fix must not add any.
  facts.error_count = tree.error_count() + python3_violations(tree).size();
  // Comments are extras: they can hang under any node, so walk the whole tree.
  for_each_descendant(tree.root(), [&](Node n) {
    if (n.is(NodeKind::Comment)) {
      std::string body(n.text(tree.text()));
      while (!body.empty() && (body.back() == ' ' || body.back() == '\t' || body.back() == '\r')) {
        body.pop_back();
      }
      facts.comments.push_back({n.range(), std::move(body)});
    }
    return true;
  });
  return facts;
}

std::vector<std::string> lost_comments(const SyntaxFacts& before, const SyntaxFacts& after,
                                       std::span<const TextRange> exempt) {
  std::map<std::string, long> kept;
  for (const SourceComment& c : after.comments) ++kept[c.text];
  std::vector<std::string> lost;
  for (const SourceComment& c : before.comments) {
    bool about_it = false;
    for (const TextRange& r : exempt) {
      about_it = about_it || c.range.contains(r);
    }
    if (about_it) continue;
    if (--kept[c.text] < 0) lost.push_back(c.text);
  }
  return lost;
}

}  // namespace fxlint
