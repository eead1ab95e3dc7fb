#pragma once
// What the analyzer knows about torch's API by qualified name: which calls give
// tensors (and of what dtype kind), which give trace-time Python values, and
// which names start or end a compile region.
#include <cstdint>
#include <optional>
#include <string_view>

#include "analyzer/value.h"

namespace fxlint::torch_api {

// Result of calling the function `qualified` ("torch.where", "torch.nn.functional.relu").
// Unknown for anything not known to be torch's.
Value call_result(std::string_view qualified);

// A tensor class an annotation may name (`torch.Tensor`, `torch.nn.Parameter`, the legacy
// `torch.BoolTensor`, `torch.LongTensor`, ...), with the dtype it promises (Unknown for
// `torch.Tensor`); nullopt for any other name.
std::optional<TensorDtype> tensor_class_dtype(std::string_view qualified);

// Result of calling method `name` on a tensor (`x.sum()`, `x.size(0)`).
Value tensor_method_result(std::string_view name);
// Whether torch.Tensor has a method named `name` (tensor_methods.cpp).
bool is_tensor_method(std::string_view name);
// torch functions that compute their result from their arguments' values only
// (arithmetic, rounding): given trace-time values, the result's data is known
// when tracing (`torch.div(x.size(1), 2, rounding_mode="trunc")`).
bool is_pure_arithmetic(std::string_view qualified);

// Calls whose result's shape depends on their input's values (FX303):
// `torch.nonzero`, `torchvision.ops.nms`, `x.unique()`. The single-argument
// `torch.where` and tensor-valued `repeat_interleave` depend on their arguments
// and are decided by callers.
bool is_dynamic_shape_function(std::string_view qualified);
bool is_dynamic_shape_method(std::string_view name);
// Reductions (`sum`, `max`, `any`, ...): without a dim they give one element,
// whatever the input's shape.
bool is_reduction(std::string_view name);

// Result of reading attribute `name` of a tensor (`x.shape`, `x.T`).
Value tensor_attribute(std::string_view name);

// `torch.nn.Linear` etc.: constructing one gives an nn.Module.
bool is_module_class(std::string_view qualified);
// Module methods that move or cast every parameter and buffer (`to`, `cuda`, `half`, ...).
bool is_module_move_or_cast(std::string_view method);
// Methods of modules and generators that return the object they are called on:
// the moves and casts, `eval`, `train`, `requires_grad_`, `manual_seed`.
bool returns_receiver(std::string_view method);
// A torch.nn layer that makes parameters by default (Linear, Conv2d, LayerNorm, LSTM, ...),
// or `nn.Parameter` itself: what makes a module hold parameters.
bool makes_parameters(std::string_view qualified);
// `nn.Parameter` or `nn.Buffer`: assigned to a module attribute, it becomes module state.
bool registers_module_state(std::string_view qualified);
// A call that makes a text tokenizer: a transformers or tokenizers tokenizer class, or its
// `from_pretrained` / `from_file`.
bool makes_tokenizer(std::string_view qualified);
// A base class of another library that derives from torch.nn.Module
// (`pytorch_lightning.LightningModule`, `transformers.PreTrainedModel`): a
// project class deriving from it is a module, though its sources are not linted.
bool is_library_module_base(std::string_view qualified);

// Functions whose first argument is compiled: torch.compile, torch.export.export, ...
bool is_compile_function(std::string_view qualified);
// Decorators that compile the function they decorate.
bool is_compile_decorator(std::string_view qualified);
// The tracers (Tracer bits) a decorator hides the function from; 0 for most.
uint8_t opaque_decorator(std::string_view qualified);
// `torch.compiler.disable` and its older spellings: TorchDynamo runs the function outside
// its graph, breaking the graph at each call (custom operators and `allow_in_graph` it keeps).
bool is_dynamo_disable(std::string_view qualified);

// Escape-hatch predicates, as a tracer sees them.
// IsExporting: `torch.compiler.is_exporting()`, true under torch.export only (not torch.compile).
enum class HatchPredicate { NotAHatch, IsCompiling, IsScriptingOrTracing, IsInOnnxExport, IsExporting };
HatchPredicate hatch_predicate(std::string_view qualified);

}  // namespace fxlint::torch_api
