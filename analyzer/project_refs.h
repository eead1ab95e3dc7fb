#pragma once
// A function or a class of the project: its file and its index there.

namespace fxlint {

struct FunctionRef {
  int file = -1;
  int function = -1;
  bool valid() const { return file >= 0 && function >= 0; }
};

struct ClassRef {
  int file = -1;
  int cls = -1;
  bool valid() const { return file >= 0 && cls >= 0; }
  friend bool operator==(const ClassRef&, const ClassRef&) = default;
};

}  // namespace fxlint
