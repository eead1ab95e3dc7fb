#include "records.h"

#include "interned.h"
#include "short_repr.h"

namespace fxcap {

void Records::add_guard(std::string source, std::string kind, std::string detail) {
  if (!guard_keys_.emplace(source, kind).second) return;
  guards.push_back({std::move(source), std::move(kind), std::move(detail)});
}

void Records::add_specialization(const std::string& name, py::handle value, std::vector<StackEntry> stack) {
  if (!specialized_.insert(name).second) return;
  std::string text = short_repr(value, 200);
  specializations.push_back({name, text, py::str(py::type::of(value).attr(interned("__name__"))), std::move(stack)});
}

py::list stack_to_python(const std::vector<StackEntry>& stack) {
  static py::object& getline = *new py::object(py::module_::import("linecache").attr(interned("getline")));
  py::list out;
  for (const auto& e : stack) {
    py::dict d;
    d["filename"] = e.filename;
    d["lineno"] = e.lineno;
    d["name"] = e.name;
    d["line"] = getline(e.filename, e.lineno).attr(interned("strip"))();
    out.append(d);
  }
  return out;
}

namespace {

py::dict to_dict(const BreakRecord& b) {
  py::dict d;
  d["reason"] = b.info.reason;
  d["code"] = b.info.code;
  d["gb_id"] = b.info.gb_id.empty() ? py::object(py::none()) : py::object(py::str(b.info.gb_id));
  d["user_stack"] = stack_to_python(b.stack);
  d["graph_index"] = b.graph_index;
  return d;
}

py::dict to_dict(const SideEffectRecord& s) {
  py::dict d;
  d["kind"] = s.kind;
  d["target"] = s.target;
  d["code"] = s.code;
  d["value_type"] = s.value_type;
  d["user_stack"] = stack_to_python(s.stack);
  return d;
}

py::dict to_dict(const GuardRecord& g) {
  py::dict d;
  d["source"] = g.source;
  d["kind"] = g.kind;
  d["detail"] = g.detail;
  return d;
}

py::dict to_dict(const SpecializationRecord& s) {
  py::dict d;
  d["name"] = s.name;
  d["value"] = s.value;
  d["type"] = s.value_type;
  d["user_stack"] = stack_to_python(s.stack);
  return d;
}

template <typename Record>
py::list to_list(const std::vector<Record>& records) {
  py::list out;
  for (const Record& r : records) out.append(to_dict(r));
  return out;
}

}  // namespace

py::dict Records::to_python() const {
  py::dict out;
  out["break_reasons"] = to_list(breaks);
  out["side_effects"] = to_list(side_effects);
  out["guards"] = to_list(guards);
  out["specializations"] = to_list(specializations);
  return out;
}

}  // namespace fxcap
