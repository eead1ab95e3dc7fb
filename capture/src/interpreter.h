// The symbolic interpreter: runs CPython bytecode with real values (so the
// call returns what eager returns) while recording tensor work into torch.fx
// graphs. The frame loop lives in interpreter.cpp, the table from opcode to
// handler in interpreter_dispatch.cpp, the handlers (one per opcode, named after
// it, as TorchDynamo's) in one file per family, value operations in
// interpreter_values.cpp, calls, inlining and argument binding in
// interpreter_calls.cpp. Which frames are recorded follows TorchDynamo's
// compile units (compile_units.h): the frame loop starts a unit where Dynamo
// would, and a break splits the frames on its path into units of their own.
#pragma once

#include <pybind11/pybind11.h>

#include <array>
#include <memory>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "bytecode.h"
#include "call_policy.h"
#include "compile_units.h"
#include "graph_builder.h"
#include "records.h"

namespace fxcap {

namespace py = pybind11;

// A bug or limit of the interpreter itself, never a user exception.
struct InternalError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// How a frame runs, as TorchDynamo would run it.
enum class FrameMode {
  Traced,         // recorded into the current graph (the unit's own frame, or inlined into it)
  Cached,         // a unit Dynamo compiled before: runs without being recorded again
  CachedInlined,  // inlined into a cached unit
  Eager,          // outside any unit (a frame Dynamo skipped): each function it calls is a unit
};

struct Frame {
  const DecodedCode* code = nullptr;
  py::object function;  // the function being run (for its closure and defaults)
  py::object globals;
  py::object builtins;
  std::vector<py::object> locals;  // fast locals, cells and free variables
  std::vector<py::object> stack;   // a null object is CPython's NULL marker
  int pc = 0;              // next instruction
  int current = 0;         // instruction being executed
  bool generator = false;  // YIELD_VALUE suspends the frame instead of failing
  bool suspended = false;  // stopped at a yield; resuming pushes the sent value
  FrameMode mode = FrameMode::Traced;
  bool unit_root = false;       // a compile unit started in this frame
  bool resume_pending = false;  // the next instruction starts a unit: Dynamo's resume function after a break
  int cached_break = -1;        // Cached: the instruction where the compiled unit broke
  int unit_graph = -1;          // graph slots when the frame's latest unit started
  int unit_start = 0;           // the instruction it started at
  CompileUnits::Entry* entry = nullptr;  // the unit started in this frame, while it is traced
  std::vector<py::object> args;          // the arguments it was entered with (guards of its own unit)
  // Inlined into a traced unit: the graph open when it was entered (-1: none
  // yet) and the position in it, where Dynamo's graph of this frame would begin.
  int mark_graph = -2;
  int mark_position = 0;
};

struct CaptureOptions {
  int max_inline_depth = 48;  // deeper calls run eagerly, as a break
};

// Builtins the interpreter treats specially, looked up once.
struct BuiltinRefs {
  BuiltinRefs();
  py::object getattr_fn, setattr_fn, object_setattr, sorted_fn, min_fn, max_fn, locals_fn, vars_fn, globals_fn, eval_fn, exec_fn, map_fn, object_type,
      super_type;
  std::vector<py::object> iterating;  // list, tuple, iter, enumerate, zip, reversed: tensors are unbound first
};

class Interpreter : public std::enable_shared_from_this<Interpreter> {
 public:
  explicit Interpreter(CaptureOptions options);
  // Runs a suspended generator frame to its next yield (yielded = true) or return.
  // With `exc`, raises it at the suspended yield instead (generator.throw/close).
  py::object resume(Frame& f, bool& yielded, py::object exc = py::object());

  // Runs fn(*args, **kwargs); returns the real result. User exceptions
  // propagate unchanged.
  py::object run(py::handle fn, py::tuple args, py::dict kwargs);
  GraphBuilder& graphs() { return graphs_; }
  Records& records() { return records_; }
  // The first graph that may return the captured function's value: the graph of
  // its own last unit, when that unit was traced.
  int result_graph_floor() const { return result_graph_floor_; }

 private:
  // interpreter.cpp
  py::object run_frame(Frame& f, py::object pending = py::object());
  // Sends the exception to f's handler for the current instruction; false when it has none.
  bool enter_handler(Frame& f, py::handle exc);
  // Adds f's current line to the traceback of the error being thrown.
  // True when it set the Python error indicator to the exception with the new traceback.
  bool add_traceback_entry(Frame& f, py::error_already_set& e);

  // interpreter_dispatch.cpp
  using Handler = void (Interpreter::*)(Frame& f, const Instr& in);
  using HandlerTable = std::array<Handler, kOpCount>;
  static const HandlerTable& handler_table();
  void step(Frame& f, const Instr& in);

  // Opcode handlers. Each sees one decoded instruction (bytecode.h); a handler
  // named for a family serves each opcode of it (handler_table says which).
  // interpreter_stack.cpp: stack manipulation; constants, locals, globals and cells
  void NOP(Frame& f, const Instr& in);
  void POP_TOP(Frame& f, const Instr& in);
  void PUSH_NULL(Frame& f, const Instr& in);
  void COPY(Frame& f, const Instr& in);
  void SWAP(Frame& f, const Instr& in);
  void LOAD_CONST(Frame& f, const Instr& in);
  void LOAD_FAST(Frame& f, const Instr& in);
  void STORE_FAST(Frame& f, const Instr& in);
  void DELETE_FAST(Frame& f, const Instr& in);
  void LOAD_GLOBAL(Frame& f, const Instr& in);
  void STORE_GLOBAL(Frame& f, const Instr& in);
  void MAKE_CELL(Frame& f, const Instr& in);
  void COPY_FREE_VARS(Frame& f, const Instr& in);
  void LOAD_CLOSURE(Frame& f, const Instr& in);
  void LOAD_DEREF(Frame& f, const Instr& in);
  void STORE_DEREF(Frame& f, const Instr& in);
  void DELETE_DEREF(Frame& f, const Instr& in);
  // interpreter_attributes_items.cpp: obj.name and obj[index]
  void LOAD_ATTR(Frame& f, const Instr& in);
  void LOAD_METHOD(Frame& f, const Instr& in);
  void STORE_ATTR(Frame& f, const Instr& in);
  void DELETE_ATTR(Frame& f, const Instr& in);
  void BINARY_SUBSCR(Frame& f, const Instr& in);
  void STORE_SUBSCR(Frame& f, const Instr& in);
  void DELETE_SUBSCR(Frame& f, const Instr& in);
  // interpreter_operators.cpp
  void unary_number(Frame& f, PyObject* (*apply)(PyObject*), const char* operator_name);
  void UNARY_POSITIVE(Frame& f, const Instr& in);
  void UNARY_NEGATIVE(Frame& f, const Instr& in);
  void UNARY_INVERT(Frame& f, const Instr& in);
  void UNARY_NOT(Frame& f, const Instr& in);
  void BINARY_OP(Frame& f, const Instr& in);
  void COMPARE_OP(Frame& f, const Instr& in);
  void IS_OP(Frame& f, const Instr& in);
  void CONTAINS_OP(Frame& f, const Instr& in);
  void GET_LEN(Frame& f, const Instr& in);
  // interpreter_control.cpp: jumps, loops, generators
  void pop_jump_if_truth(Frame& f, const Instr& in, bool jump_if);
  void jump_or_pop(Frame& f, const Instr& in, bool jump_if);
  void JUMP(Frame& f, const Instr& in);
  void POP_JUMP_IF_FALSE(Frame& f, const Instr& in);
  void POP_JUMP_IF_TRUE(Frame& f, const Instr& in);
  void POP_JUMP_IF_NONE(Frame& f, const Instr& in);
  void POP_JUMP_IF_NOT_NONE(Frame& f, const Instr& in);
  void JUMP_IF_FALSE_OR_POP(Frame& f, const Instr& in);
  void JUMP_IF_TRUE_OR_POP(Frame& f, const Instr& in);
  void GET_ITER(Frame& f, const Instr& in);
  void FOR_ITER(Frame& f, const Instr& in);
  void RETURN_GENERATOR(Frame& f, const Instr& in);
  void YIELD_VALUE(Frame& f, const Instr& in);
  // interpreter_build.cpp: building tuples, lists, sets, dicts, slices and strings; unpacking
  void merge_into(Frame& f, const Instr& in, const char* method);
  void BUILD_TUPLE(Frame& f, const Instr& in);
  void BUILD_LIST(Frame& f, const Instr& in);
  void BUILD_SET(Frame& f, const Instr& in);
  void BUILD_MAP(Frame& f, const Instr& in);
  void BUILD_CONST_KEY_MAP(Frame& f, const Instr& in);
  void BUILD_STRING(Frame& f, const Instr& in);
  void BUILD_SLICE(Frame& f, const Instr& in);
  void LIST_APPEND(Frame& f, const Instr& in);
  void SET_ADD(Frame& f, const Instr& in);
  void MAP_ADD(Frame& f, const Instr& in);
  void LIST_EXTEND(Frame& f, const Instr& in);
  void SET_UPDATE(Frame& f, const Instr& in);
  void DICT_UPDATE(Frame& f, const Instr& in);
  void DICT_MERGE(Frame& f, const Instr& in);
  void LIST_TO_TUPLE(Frame& f, const Instr& in);
  void FORMAT_VALUE(Frame& f, const Instr& in);
  void UNPACK_SEQUENCE(Frame& f, const Instr& in);
  void UNPACK_EX(Frame& f, const Instr& in);
  // interpreter_exceptions.cpp: raising, handling, with-blocks
  void BEFORE_WITH(Frame& f, const Instr& in);
  void WITH_EXCEPT_START(Frame& f, const Instr& in);
  void PUSH_EXC_INFO(Frame& f, const Instr& in);
  void POP_EXCEPT(Frame& f, const Instr& in);
  void CHECK_EXC_MATCH(Frame& f, const Instr& in);
  void RERAISE(Frame& f, const Instr& in);
  void RAISE_VARARGS(Frame& f, const Instr& in);
  void LOAD_ASSERTION_ERROR(Frame& f, const Instr& in);
  // interpreter_definitions.cpp: what def, class and import statements run
  void MAKE_FUNCTION(Frame& f, const Instr& in);
  void LOAD_BUILD_CLASS(Frame& f, const Instr& in);
  void IMPORT_NAME(Frame& f, const Instr& in);
  void IMPORT_FROM(Frame& f, const Instr& in);
  // interpreter_calls.cpp
  void CALL(Frame& f, const Instr& in);
  void CALL_FUNCTION_EX(Frame& f, const Instr& in);

  // interpreter_values.cpp
  void load_attr(Frame& f, py::handle obj, py::handle name);
  void store_attr(py::handle obj, py::handle name, py::handle value);
  py::object binary_op(BinaryOperator op, py::handle a, py::handle b);
  py::object compare_op(int op, py::handle a, py::handle b);
  py::object subscript(py::handle obj, py::handle index);
  void store_subscript(py::handle obj, py::handle index, py::handle value);
  bool truth(py::handle value, bool assert_test);
  py::object get_iter(py::handle value);
  py::object unbind(py::handle tensor);
  void record_global_read(const std::string& name, py::handle value);
  void graph_break(const BreakInfo& info);
  // After a break, each frame from the unit's own frame to the innermost becomes a
  // unit of its own, as Dynamo compiles them: skipped when it breaks in a loop
  // (or, for the innermost, cannot resume after the break), else resumed after
  // the breaking instruction.
  void split_units_at_break(bool resumable = true);
  // Records a break at the current graph, closes it and splits the units it ends.
  void record_break(BreakRecord r, bool resumable);
  // Starts the compile unit of f at instruction `start`: traced, cached or skipped.
  void start_unit(Frame& f, int start, bool new_graph);
  // The mode of a frame f's caller would give it: inlined, or a unit of its own.
  void enter_frame_mode(Frame& f);
  void sync_recording();
  void side_effect(const std::string& kind, const std::string& target, py::handle value, const char* scalar_code,
                   const char* tensor_code);
  std::vector<StackEntry> user_stack() const;
  bool created_here(py::handle obj) const { return created_.count(obj.ptr()) > 0; }
  void mark_created(py::handle obj);
  void mark_if_fresh(const py::object& value);
  std::string source_of(py::handle obj) const;

  // interpreter_calls.cpp
  py::object call(Frame& f, py::handle callable, std::vector<py::object> args, py::object kwargs);
  py::object run_function(py::handle fn, const std::vector<py::object>& args, py::handle kwargs,
                          const char* source_prefix);
  void add_tensor_inputs(const std::string& name, const std::string& source, py::handle value);
  std::vector<py::object> bind_arguments(const DecodedCode& code, py::handle fn, const std::vector<py::object>& args,
                                         py::handle kwargs);
  py::object call_eagerly(py::handle callable, const std::vector<py::object>& args, py::handle kwargs);
  py::object run_natively(py::handle fn, const std::vector<py::object>& args, py::handle kwargs);
  void note_container_mutation(py::handle callable, const std::vector<py::object>& args);
  // sorted/min/max with a Python key function: the keys are computed by the interpreter.
  py::object call_with_key(Frame& f, py::handle callable, const std::vector<py::object>& args, py::dict kwargs);
  void init_frame(Frame& f, const DecodedCode& code, py::handle fn, const std::vector<py::object>& args,
                  py::handle kwargs, const char* source_prefix);
  // Graph inputs and guards for the captured function's arguments, named source_prefix['param'].
  void register_inputs(const DecodedCode& code, const std::vector<py::object>& locals, const char* source_prefix);

  CaptureOptions options_;
  GraphBuilder graphs_;
  Records records_;
  CallPolicy policy_;
  CompileUnits units_;
  BuiltinRefs builtins_;
  std::vector<Frame*> frames_;
  std::unordered_set<PyObject*> created_;
  std::vector<py::object> keep_alive_;
  std::vector<std::pair<py::object, std::string>> module_tree_;  // the root's sub-modules and paths
  std::unordered_map<PyObject*, std::string> module_sources_;    // sub-module -> L['self'].path
  int result_graph_floor_ = 0;
  py::object root_;  // the captured module, when a module was captured
  py::object prepend_frame_;
  py::object operator_, torch_, set_grad_enabled_, is_grad_enabled_, tensor_cls_, module_cls_, getattr_;
};

}  // namespace fxcap
