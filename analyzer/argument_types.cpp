#include "analyzer/argument_types.h"

namespace fxlint {

ArgumentTypes::ArgumentTypes(const ArgumentTypes& other) {
  std::lock_guard<std::mutex> lock(other.mutex_);
  joined_ = other.joined_;
}

ArgumentTypes& ArgumentTypes::operator=(const ArgumentTypes& other) {
  if (this == &other) return *this;
  std::scoped_lock lock(mutex_, other.mutex_);
  joined_ = other.joined_;
  return *this;
}

bool ArgumentTypes::called(int file, int function) const {
  std::lock_guard<std::mutex> lock(mutex_);
  return joined_.count({file, function}) > 0;
}

bool ArgumentTypes::same_calls(const ArgumentTypes& other, int file, int function) const {
  if (this == &other) return true;
  std::scoped_lock lock(mutex_, other.mutex_);
  auto mine = joined_.find({file, function});
  auto theirs = other.joined_.find({file, function});
  if (mine == joined_.end() || theirs == other.joined_.end()) {
    return mine == joined_.end() && theirs == other.joined_.end();
  }
  return mine->second == theirs->second;
}

void ArgumentTypes::merge(const ArgumentTypes& other) {
  std::map<std::pair<int, int>, std::vector<Value>> theirs;
  {
    std::lock_guard<std::mutex> lock(other.mutex_);
    theirs = other.joined_;
  }
  for (const auto& [key, values] : theirs) record(key.first, key.second, values);
}

bool ArgumentTypes::operator==(const ArgumentTypes& other) const {
  if (this == &other) return true;
  std::scoped_lock lock(mutex_, other.mutex_);
  return joined_ == other.joined_;
}

void ArgumentTypes::record(int file, int function, const std::vector<Value>& by_parameter) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto [it, first] = joined_.try_emplace({file, function}, by_parameter);
  if (first) return;
  std::vector<Value>& known = it->second;
  if (known.size() < by_parameter.size()) known.resize(by_parameter.size());
  for (size_t i = 0; i < known.size(); ++i) {
    Value passed = i < by_parameter.size() ? by_parameter[i] : Value::unknown();
    Value joined = join(known[i], passed);
    // A size or value some compiled caller makes data-dependent stays so, even
    // where callers disagree on the kind: the callee fails under export when
    // reached from that caller.
    joined.data_dependent = known[i].data_dependent || passed.data_dependent;
    known[i] = joined;
  }
}

Value ArgumentTypes::parameter(int file, int function, size_t index) const {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = joined_.find({file, function});
  if (it == joined_.end() || index >= it->second.size()) return Value::unknown();
  return it->second[index];
}

}  // namespace fxlint
