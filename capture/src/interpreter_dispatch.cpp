// The table from opcode to handler, built here only. An opcode without a
// handler is refused as unsupported bytecode.
#include "interpreter.h"

namespace fxcap {

const Interpreter::HandlerTable& Interpreter::handler_table() {
  static const HandlerTable table = [] {
    HandlerTable t{};
    auto on = [&t](Op op, Handler h) { t[static_cast<size_t>(op)] = h; };
    // Nothing to do: PRECALL's work is CALL's, and decoding gave each CALL its KW_NAMES.
    on(Op::NOP, &Interpreter::NOP);
    on(Op::RESUME, &Interpreter::NOP);
    on(Op::CACHE, &Interpreter::NOP);
    on(Op::PRECALL, &Interpreter::NOP);
    on(Op::KW_NAMES, &Interpreter::NOP);

    on(Op::POP_TOP, &Interpreter::POP_TOP);
    on(Op::PUSH_NULL, &Interpreter::PUSH_NULL);
    on(Op::COPY, &Interpreter::COPY);
    on(Op::SWAP, &Interpreter::SWAP);
    on(Op::LOAD_CONST, &Interpreter::LOAD_CONST);
    on(Op::LOAD_FAST, &Interpreter::LOAD_FAST);
    on(Op::STORE_FAST, &Interpreter::STORE_FAST);
    on(Op::DELETE_FAST, &Interpreter::DELETE_FAST);
    on(Op::LOAD_GLOBAL, &Interpreter::LOAD_GLOBAL);
    on(Op::STORE_GLOBAL, &Interpreter::STORE_GLOBAL);
    on(Op::MAKE_CELL, &Interpreter::MAKE_CELL);
    on(Op::COPY_FREE_VARS, &Interpreter::COPY_FREE_VARS);
    on(Op::LOAD_CLOSURE, &Interpreter::LOAD_CLOSURE);
    on(Op::LOAD_DEREF, &Interpreter::LOAD_DEREF);
    on(Op::STORE_DEREF, &Interpreter::STORE_DEREF);
    on(Op::DELETE_DEREF, &Interpreter::DELETE_DEREF);

    on(Op::LOAD_ATTR, &Interpreter::LOAD_ATTR);
    on(Op::LOAD_METHOD, &Interpreter::LOAD_METHOD);
    on(Op::STORE_ATTR, &Interpreter::STORE_ATTR);
    on(Op::DELETE_ATTR, &Interpreter::DELETE_ATTR);
    on(Op::BINARY_SUBSCR, &Interpreter::BINARY_SUBSCR);
    on(Op::STORE_SUBSCR, &Interpreter::STORE_SUBSCR);
    on(Op::DELETE_SUBSCR, &Interpreter::DELETE_SUBSCR);

    on(Op::UNARY_POSITIVE, &Interpreter::UNARY_POSITIVE);
    on(Op::UNARY_NEGATIVE, &Interpreter::UNARY_NEGATIVE);
    on(Op::UNARY_INVERT, &Interpreter::UNARY_INVERT);
    on(Op::UNARY_NOT, &Interpreter::UNARY_NOT);
    on(Op::BINARY_OP, &Interpreter::BINARY_OP);
    on(Op::COMPARE_OP, &Interpreter::COMPARE_OP);
    on(Op::IS_OP, &Interpreter::IS_OP);
    on(Op::CONTAINS_OP, &Interpreter::CONTAINS_OP);
    on(Op::GET_LEN, &Interpreter::GET_LEN);

    // A decoded jump target is an instruction index, so the direction that
    // 3.11 spells in the opcode does not matter to the handler.
    on(Op::JUMP_FORWARD, &Interpreter::JUMP);
    on(Op::JUMP_BACKWARD, &Interpreter::JUMP);
    on(Op::JUMP_BACKWARD_NO_INTERRUPT, &Interpreter::JUMP);
    on(Op::POP_JUMP_FORWARD_IF_FALSE, &Interpreter::POP_JUMP_IF_FALSE);
    on(Op::POP_JUMP_BACKWARD_IF_FALSE, &Interpreter::POP_JUMP_IF_FALSE);
    on(Op::POP_JUMP_FORWARD_IF_TRUE, &Interpreter::POP_JUMP_IF_TRUE);
    on(Op::POP_JUMP_BACKWARD_IF_TRUE, &Interpreter::POP_JUMP_IF_TRUE);
    on(Op::POP_JUMP_FORWARD_IF_NONE, &Interpreter::POP_JUMP_IF_NONE);
    on(Op::POP_JUMP_BACKWARD_IF_NONE, &Interpreter::POP_JUMP_IF_NONE);
    on(Op::POP_JUMP_FORWARD_IF_NOT_NONE, &Interpreter::POP_JUMP_IF_NOT_NONE);
    on(Op::POP_JUMP_BACKWARD_IF_NOT_NONE, &Interpreter::POP_JUMP_IF_NOT_NONE);
    on(Op::JUMP_IF_FALSE_OR_POP, &Interpreter::JUMP_IF_FALSE_OR_POP);
    on(Op::JUMP_IF_TRUE_OR_POP, &Interpreter::JUMP_IF_TRUE_OR_POP);
    on(Op::GET_ITER, &Interpreter::GET_ITER);
    on(Op::FOR_ITER, &Interpreter::FOR_ITER);
    on(Op::RETURN_GENERATOR, &Interpreter::RETURN_GENERATOR);
    // RETURN_VALUE, and YIELD_VALUE in a generator, leave the frame: run_frame does them.
    on(Op::YIELD_VALUE, &Interpreter::YIELD_VALUE);

    on(Op::BUILD_TUPLE, &Interpreter::BUILD_TUPLE);
    on(Op::BUILD_LIST, &Interpreter::BUILD_LIST);
    on(Op::BUILD_SET, &Interpreter::BUILD_SET);
    on(Op::BUILD_MAP, &Interpreter::BUILD_MAP);
    on(Op::BUILD_CONST_KEY_MAP, &Interpreter::BUILD_CONST_KEY_MAP);
    on(Op::BUILD_STRING, &Interpreter::BUILD_STRING);
    on(Op::BUILD_SLICE, &Interpreter::BUILD_SLICE);
    on(Op::LIST_APPEND, &Interpreter::LIST_APPEND);
    on(Op::SET_ADD, &Interpreter::SET_ADD);
    on(Op::MAP_ADD, &Interpreter::MAP_ADD);
    on(Op::LIST_EXTEND, &Interpreter::LIST_EXTEND);
    on(Op::SET_UPDATE, &Interpreter::SET_UPDATE);
    on(Op::DICT_UPDATE, &Interpreter::DICT_UPDATE);
    on(Op::DICT_MERGE, &Interpreter::DICT_MERGE);
    on(Op::LIST_TO_TUPLE, &Interpreter::LIST_TO_TUPLE);
    on(Op::FORMAT_VALUE, &Interpreter::FORMAT_VALUE);
    on(Op::UNPACK_SEQUENCE, &Interpreter::UNPACK_SEQUENCE);
    on(Op::UNPACK_EX, &Interpreter::UNPACK_EX);

    on(Op::BEFORE_WITH, &Interpreter::BEFORE_WITH);
    on(Op::WITH_EXCEPT_START, &Interpreter::WITH_EXCEPT_START);
    on(Op::PUSH_EXC_INFO, &Interpreter::PUSH_EXC_INFO);
    on(Op::POP_EXCEPT, &Interpreter::POP_EXCEPT);
    on(Op::CHECK_EXC_MATCH, &Interpreter::CHECK_EXC_MATCH);
    on(Op::RERAISE, &Interpreter::RERAISE);
    on(Op::RAISE_VARARGS, &Interpreter::RAISE_VARARGS);
    on(Op::LOAD_ASSERTION_ERROR, &Interpreter::LOAD_ASSERTION_ERROR);

    on(Op::MAKE_FUNCTION, &Interpreter::MAKE_FUNCTION);
    on(Op::LOAD_BUILD_CLASS, &Interpreter::LOAD_BUILD_CLASS);
    on(Op::IMPORT_NAME, &Interpreter::IMPORT_NAME);
    on(Op::IMPORT_FROM, &Interpreter::IMPORT_FROM);

    on(Op::CALL, &Interpreter::CALL);
    on(Op::CALL_FUNCTION_EX, &Interpreter::CALL_FUNCTION_EX);
    return t;
  }();
  return table;
}

void Interpreter::step(Frame& f, const Instr& in) {
  Handler handler = handler_table()[static_cast<size_t>(in.op)];
  if (!handler) throw InternalError("unsupported bytecode " + in.opname);
  (this->*handler)(f, in);
}

}  // namespace fxcap
