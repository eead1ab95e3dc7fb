#include "analyzer/predicate_body.h"

#include <set>
#include <string>

#include "analyzer/node_kind.h"

namespace fxlint {

bool collect_returns(Node body, std::vector<std::pair<Node, bool>>& out) {
  constexpr uint32_t kMaxStatements = 12;
  constexpr size_t kMaxNodes = 600;
  if (!body || body.named_child_count() > kMaxStatements) return false;
  size_t seen = 0;
  auto visit = [&](auto&& self, Node n, bool in_except) -> bool {
    if (++seen > kMaxNodes) return false;
    if (n.is(NodeKind::FunctionDefinition) || n.is(NodeKind::ClassDefinition) || n.is(NodeKind::Lambda)) return true;
    if (n.is(NodeKind::ReturnStatement)) {
      out.emplace_back(n, in_except);
      return true;
    }
    bool ok = true;
    bool except = in_except || n.is(NodeKind::ExceptClause) || n.is(NodeKind::ExceptGroupClause);
    for (Node c : NamedChildren(n)) ok = ok && self(self, c, except);
    return ok;
  };
  return visit(visit, body, false);
}

bool returned_values(Node function, std::vector<std::pair<Node, bool>>& out) {
  std::vector<std::pair<Node, bool>> returns;
  if (!function || function.is(NodeKind::Lambda) || !collect_returns(function.field("body"), returns)) return false;
  for (const auto& [ret, in_except] : returns) {
    std::vector<Node> value = ret.children();
    out.emplace_back(value.size() == 1 ? value[0].unparenthesized() : Node{}, in_except);
  }
  return true;
}

std::vector<Node> returned_local_assignments(Node body, const std::vector<std::pair<Node, bool>>& returns,
                                             std::string_view src) {
  std::set<std::string_view> names;
  std::vector<std::string_view> pending;
  // The locals an expression stands for, as the predicate follows it: a name,
  // or the operands of a boolean operator.
  auto named = [&](auto&& self, Node e, int depth) -> void {
    if (!e || depth > 64) return;
    e = e.unparenthesized();
    if (e.is(NodeKind::Identifier)) {
      if (names.insert(e.text(src)).second) pending.push_back(e.text(src));
    } else if (e.is(NodeKind::BooleanOperator)) {
      self(self, e.field("left"), depth + 1);
      self(self, e.field("right"), depth + 1);
    }
  };
  for (const auto& [ret, in_except] : returns) {
    for (Node v : ret.children()) named(named, v, 0);
  }
  std::vector<Node> out;
  std::set<uint32_t> taken;
  while (!pending.empty()) {
    std::string_view name = pending.back();
    pending.pop_back();
    auto visit = [&](auto&& self, Node n) -> void {
      if (n.is(NodeKind::FunctionDefinition) || n.is(NodeKind::ClassDefinition) || n.is(NodeKind::Lambda)) return;
      if (n.is(NodeKind::Assignment) || n.is(NodeKind::AugmentedAssignment)) {
        Node left = n.field("left").unparenthesized();
        if (left.is(NodeKind::Identifier) && left.text(src) == name) {
          if (taken.insert(n.start()).second) out.push_back(n);
          named(named, n.field("right"), 0);
          return;
        }
      }
      for (Node c : NamedChildren(n)) self(self, c);
    };
    visit(visit, body);
  }
  return out;
}

}  // namespace fxlint
