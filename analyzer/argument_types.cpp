#include "analyzer/argument_types.h"

#include <array>

namespace fxlint {

namespace {

// Whether two maps hold the same entry (or none) for each of `keys`.
template <typename Map, typename Keys>
bool same_entries(const Map& a, const Map& b, const Keys& keys) {
  for (const auto& key : keys) {
    auto x = a.find(key);
    auto y = b.find(key);
    if ((x == a.end()) != (y == b.end())) return false;
    if (x != a.end() && !(x->second == y->second)) return false;
  }
  return true;
}

// A size or value some compiled caller makes data-dependent stays so, even
// where callers disagree on the kind: the callee fails under export when
// reached from that caller. Likewise for what one of a function's returns gives.
Value joined_value(const Value& a, const Value& b) {
  Value joined = join(a, b);
  joined.data_dependent = a.data_dependent || b.data_dependent;
  return joined;
}

}  // namespace

ArgumentTypes::ArgumentTypes(const ArgumentTypes& other) {
  std::lock_guard<std::mutex> lock(other.mutex_);
  joined_ = other.joined_;
  closures_ = other.closures_;
  returns_ = other.returns_;
  consulted_ = other.consulted_;
}

ArgumentTypes& ArgumentTypes::operator=(const ArgumentTypes& other) {
  if (this == &other) return *this;
  std::scoped_lock lock(mutex_, other.mutex_);
  joined_ = other.joined_;
  closures_ = other.closures_;
  returns_ = other.returns_;
  consulted_ = other.consulted_;
  return *this;
}

bool ArgumentTypes::called(int file, int function) const {
  std::lock_guard<std::mutex> lock(mutex_);
  return joined_.count({file, function}) > 0;
}

bool ArgumentTypes::same_calls(const ArgumentTypes& other, int file, int function) const {
  if (this == &other) return true;
  std::scoped_lock lock(mutex_, other.mutex_);
  if (!same_entries(closures_, other.closures_, std::array{std::pair{file, function}})) return false;
  auto mine = joined_.find({file, function});
  auto theirs = other.joined_.find({file, function});
  if (mine == joined_.end() || theirs == other.joined_.end()) {
    return mine == joined_.end() && theirs == other.joined_.end();
  }
  return mine->second == theirs->second;
}

void ArgumentTypes::merge(const ArgumentTypes& other) {
  if (this == &other) return;
  std::scoped_lock lock(mutex_, other.mutex_);
  for (const auto& [key, values] : other.joined_) record_locked(key, values);
  for (const auto& [key, names] : other.closures_) {
    for (const auto& [name, v] : names) closure_locked(key, name, v);
  }
  for (const auto& [key, r] : other.returns_) {
    auto [it, first] = returns_.try_emplace(key, r);
    if (!first) it->second = Returned::join(it->second, r);
  }
}

bool ArgumentTypes::same_returns(const ArgumentTypes& other, const std::vector<std::pair<int, int>>& functions) const {
  if (this == &other || functions.empty()) return true;
  std::scoped_lock lock(mutex_, other.mutex_);
  return same_entries(returns_, other.returns_, functions);
}

namespace {

std::vector<Value> plain_values(const ArgumentTypes::Returned& r) {
  if (!r.plain.empty()) return r.plain;
  std::vector<Value> v{r.whole};
  v.insert(v.end(), r.elements.begin(), r.elements.end());
  return v;
}

}  // namespace

ArgumentTypes::Returned ArgumentTypes::Returned::join(const Returned& a, const Returned& b) {
  Returned out{joined_value(a.whole, b.whole), {}, a.shape_of == b.shape_of ? a.shape_of : -1, {}};
  if (a.elements.size() == b.elements.size()) {
    for (size_t i = 0; i < a.elements.size(); ++i) out.elements.push_back(joined_value(a.elements[i], b.elements[i]));
  }
  if (a.plain.empty() && b.plain.empty()) return out;
  std::vector<Value> pa = plain_values(a), pb = plain_values(b);
  size_t n = pa.size() == pb.size() && out.elements.size() + 1 == pa.size() ? pa.size() : 1;
  for (size_t i = 0; i < n; ++i) out.plain.push_back(joined_value(pa[i], pb[i]));
  // Elements the two do not agree on keep what any call gets.
  for (size_t i = n; i <= out.elements.size(); ++i) out.plain.push_back(out.elements[i - 1]);
  if (out.plain == plain_values(Returned{out.whole, out.elements, -1, {}})) out.plain.clear();
  return out;
}

ArgumentTypes::Returned ArgumentTypes::Returned::for_call(bool dependent_arguments) const {
  if (dependent_arguments || plain.empty()) return *this;
  Returned r{plain[0], std::vector<Value>(plain.begin() + 1, plain.end()), shape_of, {}};
  return r;
}

void ArgumentTypes::record_plain_walk(int file, int function, const ArgumentTypes& walk) {
  if (this == &walk) return;
  std::scoped_lock lock(mutex_, walk.mutex_);
  consulted_.insert(walk.consulted_.begin(), walk.consulted_.end());
  auto it = returns_.find({file, function});
  auto plain = walk.returns_.find({file, function});
  if (it == returns_.end() || plain == walk.returns_.end()) return;
  const Returned& p = plain->second;
  Returned& r = it->second;
  std::vector<Value> v{p.whole};
  const std::vector<Value>& elements = p.elements.size() == r.elements.size() ? p.elements : r.elements;
  v.insert(v.end(), elements.begin(), elements.end());
  r.plain.clear();
  if (v != plain_values(r)) r.plain = std::move(v);
}

void ArgumentTypes::record_return(int file, int function, const Returned& r) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto [it, first] = returns_.try_emplace({file, function}, r);
  if (!first) it->second = Returned::join(it->second, r);
}

void ArgumentTypes::consulted(int file, int function) {
  std::lock_guard<std::mutex> lock(mutex_);
  consulted_.insert({file, function});
}

bool ArgumentTypes::same_consulted(const ArgumentTypes& a, const ArgumentTypes& b) const {
  std::lock_guard<std::mutex> lock(mutex_);
  if (consulted_.empty() || &a == &b) return true;
  std::scoped_lock both(a.mutex_, b.mutex_);
  return same_entries(a.returns_, b.returns_, consulted_);
}

std::optional<ArgumentTypes::Returned> ArgumentTypes::returned(int file, int function) const {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = returns_.find({file, function});
  if (it == returns_.end()) return std::nullopt;
  return it->second;
}

bool ArgumentTypes::operator==(const ArgumentTypes& other) const {
  if (this == &other) return true;
  std::scoped_lock lock(mutex_, other.mutex_);
  return joined_ == other.joined_ && closures_ == other.closures_ && returns_ == other.returns_;
}

void ArgumentTypes::record(int file, int function, const std::vector<Value>& by_parameter) {
  std::lock_guard<std::mutex> lock(mutex_);
  record_locked({file, function}, by_parameter);
}

void ArgumentTypes::record_locked(const std::pair<int, int>& key, const std::vector<Value>& by_parameter) {
  auto [it, first] = joined_.try_emplace(key, by_parameter);
  if (first) return;
  std::vector<Value>& known = it->second;
  if (known.size() < by_parameter.size()) known.resize(by_parameter.size());
  for (size_t i = 0; i < known.size(); ++i) {
    known[i] = joined_value(known[i], i < by_parameter.size() ? by_parameter[i] : Value::unknown());
  }
}

void ArgumentTypes::record_closure(int file, int function, std::string_view name, const Value& value) {
  std::lock_guard<std::mutex> lock(mutex_);
  closure_locked({file, function}, name, value);
}

void ArgumentTypes::closure_locked(const std::pair<int, int>& key, std::string_view name, const Value& value) {
  auto& names = closures_[key];
  auto it = names.find(name);
  if (it == names.end()) names.emplace(std::string(name), value);
  else it->second = joined_value(it->second, value);
}

Value ArgumentTypes::closure(int file, int function, std::string_view name) const {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = closures_.find({file, function});
  if (it == closures_.end()) return Value::unknown();
  auto v = it->second.find(name);
  return v == it->second.end() ? Value::unknown() : v->second;
}

Value ArgumentTypes::parameter(int file, int function, size_t index) const {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = joined_.find({file, function});
  if (it == joined_.end() || index >= it->second.size()) return Value::unknown();
  return it->second[index];
}

}  // namespace fxlint

