#include "rules/check_support.h"
#include "tests/support/catch.h"

using fxlint::Target;
using fxlint::support::compile_guard_function;

TEST_CASE("compile guard: the one the target's tracer sees as true") {
  // torch.fx.symbolic_trace: is_fx_tracing, and from 2.9 is_fx_symbolic_tracing (no warning).
  CHECK(compile_guard_function("2.14", Target::Fx2Onnx) == "torch.fx._symbolic_trace.is_fx_symbolic_tracing");
  CHECK(compile_guard_function("2.9", Target::Fx2Onnx) == "torch.fx._symbolic_trace.is_fx_symbolic_tracing");
  CHECK(compile_guard_function("2.8", Target::Fx2Onnx) == "torch.fx._symbolic_trace.is_fx_tracing");
  CHECK(compile_guard_function("", Target::Fx2Onnx) == "torch.fx._symbolic_trace.is_fx_tracing");
  // Dynamo and torch.export: torch.compiler from 2.3, torch._dynamo before and when unknown.
  CHECK(compile_guard_function("2.14", Target::Dynamo) == "torch.compiler.is_compiling");
  CHECK(compile_guard_function("2.3.1", Target::Export) == "torch.compiler.is_compiling");
  CHECK(compile_guard_function("3.0", Target::Export) == "torch.compiler.is_compiling");
  CHECK(compile_guard_function("2.2", Target::Dynamo) == "torch._dynamo.is_compiling");
  CHECK(compile_guard_function("", Target::Export) == "torch._dynamo.is_compiling");
  CHECK(compile_guard_function("1.13", Target::Export) == "torch.fx._symbolic_trace.is_fx_tracing");
}

TEST_CASE("NumPy is traced by Dynamo from torch 2.1, and by no other target") {
  using fxlint::support::dynamo_traces_numpy;
  CHECK(dynamo_traces_numpy("2.14", Target::Dynamo));
  CHECK(dynamo_traces_numpy("2.1", Target::Dynamo));
  CHECK(dynamo_traces_numpy("", Target::Dynamo));
  CHECK(dynamo_traces_numpy("3.0", Target::Dynamo));
  CHECK_FALSE(dynamo_traces_numpy("2.0", Target::Dynamo));
  CHECK_FALSE(dynamo_traces_numpy("1.13", Target::Dynamo));
  CHECK_FALSE(dynamo_traces_numpy("2.14", Target::Export));
  CHECK_FALSE(dynamo_traces_numpy("2.14", Target::Fx2Onnx));
}
