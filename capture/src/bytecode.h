// Decoded bytecode of one code object. Everything that depends on the CPython
// version (opcode numbers, inline CACHE entries, EXTENDED_ARG, jump encoding,
// how operands are packed, the exception table and line table formats) is
// confined to bytecode.cpp; the interpreter's handlers see only Op values,
// decoded operands, resolved jump targets and source lines.
#pragma once

#include <pybind11/pybind11.h>

#include <cstddef>
#include <string>
#include <vector>

namespace fxcap {

namespace py = pybind11;

// The opcodes the interpreter knows by name; anything else decodes to Unknown.
#define FXCAP_OPCODES(X)                                                                    \
  X(NOP) X(RESUME) X(CACHE) X(POP_TOP) X(PUSH_NULL) X(COPY) X(SWAP) X(EXTENDED_ARG)         \
  X(UNARY_POSITIVE) X(UNARY_NEGATIVE) X(UNARY_NOT) X(UNARY_INVERT) X(BINARY_OP)             \
  X(BINARY_SUBSCR) X(STORE_SUBSCR) X(DELETE_SUBSCR) X(GET_ITER) X(FOR_ITER)                 \
  X(RETURN_VALUE) X(LOAD_CONST) X(LOAD_FAST) X(STORE_FAST) X(DELETE_FAST) X(LOAD_GLOBAL)    \
  X(STORE_GLOBAL) X(LOAD_ATTR) X(STORE_ATTR) X(DELETE_ATTR) X(LOAD_METHOD) X(PRECALL)       \
  X(CALL) X(KW_NAMES) X(CALL_FUNCTION_EX) X(MAKE_FUNCTION) X(BUILD_TUPLE) X(BUILD_LIST)     \
  X(BUILD_SET) X(BUILD_MAP) X(BUILD_CONST_KEY_MAP) X(BUILD_STRING) X(BUILD_SLICE)           \
  X(LIST_APPEND) X(SET_ADD) X(MAP_ADD) X(LIST_EXTEND) X(SET_UPDATE) X(DICT_UPDATE)          \
  X(DICT_MERGE) X(LIST_TO_TUPLE) X(FORMAT_VALUE) X(UNPACK_SEQUENCE) X(UNPACK_EX)            \
  X(COMPARE_OP) X(IS_OP) X(CONTAINS_OP) X(JUMP_FORWARD) X(JUMP_BACKWARD)                    \
  X(JUMP_BACKWARD_NO_INTERRUPT) X(POP_JUMP_FORWARD_IF_FALSE) X(POP_JUMP_FORWARD_IF_TRUE)    \
  X(POP_JUMP_FORWARD_IF_NONE) X(POP_JUMP_FORWARD_IF_NOT_NONE) X(POP_JUMP_BACKWARD_IF_FALSE) \
  X(POP_JUMP_BACKWARD_IF_TRUE) X(POP_JUMP_BACKWARD_IF_NONE)                                 \
  X(POP_JUMP_BACKWARD_IF_NOT_NONE) X(JUMP_IF_FALSE_OR_POP) X(JUMP_IF_TRUE_OR_POP)           \
  X(LOAD_CLOSURE) X(LOAD_DEREF) X(STORE_DEREF) X(DELETE_DEREF) X(MAKE_CELL)                 \
  X(COPY_FREE_VARS) X(RETURN_GENERATOR) X(YIELD_VALUE) X(BEFORE_WITH) X(PUSH_EXC_INFO)      \
  X(POP_EXCEPT) X(CHECK_EXC_MATCH) X(RERAISE) X(WITH_EXCEPT_START) X(RAISE_VARARGS)         \
  X(LOAD_ASSERTION_ERROR) X(IMPORT_NAME) X(IMPORT_FROM) X(GET_LEN) X(LOAD_BUILD_CLASS)

enum class Op {
#define FXCAP_ENUM(name) name,
  FXCAP_OPCODES(FXCAP_ENUM)
#undef FXCAP_ENUM
  Unknown
};

constexpr size_t kOpCount = static_cast<size_t>(Op::Unknown) + 1;

// BINARY_OP's decoded operand.
enum class BinaryOperator {
  Add, And, FloorDivide, Lshift, MatrixMultiply, Multiply, Remainder, Or, Power, Rshift, Subtract, TrueDivide, Xor,
  InplaceAdd, InplaceAnd, InplaceFloorDivide, InplaceLshift, InplaceMatrixMultiply, InplaceMultiply,
  InplaceRemainder, InplaceOr, InplacePower, InplaceRshift, InplaceSubtract, InplaceTrueDivide, InplaceXor
};

// MAKE_FUNCTION's decoded operand: which optional parts are on the stack.
constexpr int kFunctionDefaults = 0x01;
constexpr int kFunctionKwDefaults = 0x02;
constexpr int kFunctionAnnotations = 0x04;
constexpr int kFunctionClosure = 0x08;

// FORMAT_VALUE's decoded operand: a conversion, and whether a format spec is on the stack.
constexpr int kFormatConversionMask = 0x03;
constexpr int kFormatStr = 1, kFormatRepr = 2, kFormatAscii = 3;
constexpr int kFormatHasSpec = 0x04;

// One instruction as the handlers see it: the operand is decoded to its
// meaning, whatever way the CPython version encodes it.
struct Instr {
  Op op = Op::Unknown;
  // An index (co_consts, co_names, fast locals plus), a count, a BinaryOperator,
  // a rich comparison (Py_LT ... Py_GE), flags (above), or 1 for `is not` / `not in`.
  int arg = 0;
  int arg2 = 0;            // UNPACK_EX: the targets after the starred one (arg: those before it)
  bool push_null = false;  // LOAD_GLOBAL: a NULL goes below the value, for the call that follows
  int kw_names = -1;       // CALL: co_consts index of the keyword names tuple, -1 when none
  int target = -1;         // instruction index a jump goes to, -1 when not a jump
  int offset = 0;          // byte offset of the opcode itself
  int line = -1;           // source line, -1 when the compiler gave none
  int oparg = 0;           // the raw operand with EXTENDED_ARG folded in, as `dis` shows it
  std::string opname;      // the interpreter's own name for the raw opcode
};

// One row of the zero-cost exception table, in instruction indices.
struct HandlerEntry {
  int start = 0;   // first covered instruction
  int end = 0;     // one past the last covered instruction
  int target = 0;  // handler instruction
  int depth = 0;   // value stack depth to unwind to
  bool push_lasti = false;
};

struct DecodedCode {
  py::object code;  // keeps the code object alive while it is cached
  py::tuple names;   // co_names
  py::tuple consts;  // co_consts
  std::vector<Instr> instrs;
  std::vector<HandlerEntry> handlers;
  // Layout of the frame's "fast locals plus" storage.
  std::vector<std::string> localsplus_names;
  int nlocals = 0;
  int first_free = 0;  // index of the first free (closure) variable slot
  int argcount = 0, posonlyargcount = 0, kwonlyargcount = 0, flags = 0;
  std::string name, filename;
  int firstlineno = 0;
  // First instruction (index) the interpreter cannot execute, -1 when none.
  int first_unsupported = -1;

  int index_of_offset(int offset) const;
  // The fast locals the arguments fill: positional, keyword-only, *args, **kwargs.
  int argument_slots() const;
  // The handler covering instruction index i, or nullptr.
  const HandlerEntry* handler_for(int i) const;
};

// Decodes (and caches, per code object) the bytecode of `code`.
const DecodedCode& decode(py::handle code);

// CPython code flags the interpreter needs.
constexpr int kCoVarargs = 0x04;
constexpr int kCoVarkeywords = 0x08;
constexpr int kCoGenerator = 0x20;
constexpr int kCoCoroutine = 0x80;
constexpr int kCoAsyncGenerator = 0x200;

}  // namespace fxcap
