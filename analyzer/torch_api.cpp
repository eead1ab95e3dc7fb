#include "analyzer/torch_api.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <string>
#include <unordered_set>

#include "analyzer/file_model.h"

namespace fxlint::torch_api {

namespace {

using Set = std::unordered_set<std::string_view>;

bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

// torch.* names that are not functions returning tensors.
const Set& non_tensor_torch_functions() {
  static const Set s = {
      "is_tensor", "is_storage", "is_complex", "is_floating_point", "is_nonzero", "numel",
      "get_default_dtype", "set_default_dtype", "is_grad_enabled", "set_grad_enabled",
      "no_grad", "enable_grad", "inference_mode", "manual_seed", "seed", "initial_seed",
      "device", "dtype", "Size", "finfo", "iinfo", "typename", "is_inference_mode_enabled",
      "use_deterministic_algorithms", "are_deterministic_algorithms_enabled", "set_printoptions",
      "broadcast_shapes", "compile", "load", "save", "get_num_threads", "set_num_threads",
      "is_autocast_enabled", "autocast", "result_type", "promote_types", "can_cast",
      "Generator", "set_rng_state", "get_rng_state",
  };
  return s;
}

// Functions whose tensor result is boolean.
const Set& bool_functions() {
  static const Set s = {
      "isnan", "isinf", "isfinite", "isposinf", "isneginf", "isreal", "isin", "isclose",
      "logical_and", "logical_or", "logical_not", "logical_xor", "eq", "ne", "gt", "ge", "lt",
      "le", "greater", "greater_equal", "less", "less_equal", "not_equal", "signbit",
      "bernoulli_mask", "any", "all",
  };
  return s;
}

// Functions whose tensor result holds integer indices.
const Set& index_functions() {
  static const Set s = {"argmax", "argmin", "argsort", "nonzero", "argwhere", "arange",
                        "randperm", "randint", "bucketize", "searchsorted", "multinomial",
                        "nms", "batched_nms", "bincount", "tril_indices", "triu_indices"};
  return s;
}

const Set& non_tensor_methods() {
  // Methods giving Python values known at trace time (shape level).
  static const Set s = {"size", "dim", "ndimension", "numel", "nelement", "element_size",
                        "is_contiguous", "is_floating_point", "is_complex", "get_device",
                        "stride", "storage_offset", "is_pinned", "is_shared", "is_signed",
                        "has_names", "is_set_to", "__len__", "type", "dense_dim", "sparse_dim",
                        "is_coalesced", "is_inference", "is_neg", "is_conj", "is_same_size"};
  return s;
}

const Set& data_methods() {
  // Methods giving Python values computed from tensor data.
  // `equal` compares two tensors' values into a Python bool.
  static const Set s = {"item", "tolist", "numpy", "__int__", "__float__", "__bool__", "equal"};
  return s;
}

const Set& bool_methods() {
  static const Set s = {"bool", "isnan", "isinf", "isfinite", "isposinf", "isneginf", "eq",
                        "ne", "gt", "ge", "lt", "le", "logical_and", "logical_or", "logical_not",
                        "logical_xor", "any", "all", "isclose", "signbit", "greater", "less",
                        "greater_equal", "less_equal", "not_equal", "isin", "eq_", "ne_"};
  return s;
}

const Set& index_methods() {
  static const Set s = {"argmax", "argmin", "argsort", "nonzero", "argwhere", "long", "int",
                        "bincount"};
  return s;
}

const Set& float_methods() {
  static const Set s = {"float", "double", "half", "bfloat16"};
  return s;
}

// Tensor attributes that are Python values known at trace time.
const Set& static_attributes() {
  static const Set s = {"shape", "dtype", "device", "ndim", "requires_grad", "is_cuda",
                        "is_sparse", "is_quantized", "is_meta", "layout", "names", "is_leaf",
                        "is_mkldnn", "is_nested", "output_nr", "_version", "is_sparse_csr", "itemsize",
                        "nbytes", "is_cpu", "is_mps", "is_xpu"};
  return s;
}

const Set& tensor_attributes() {
  static const Set s = {"T", "mT", "H", "mH", "data", "real", "imag", "grad"};
  return s;
}

std::string_view last_component(std::string_view q) {
  auto dot = q.rfind('.');
  return dot == std::string_view::npos ? q : q.substr(dot + 1);
}

// Namespaces whose functions return tensors unless listed otherwise.
bool in_tensor_namespace(std::string_view q) {
  static constexpr std::array<std::string_view, 8> prefixes = {
      "torch.nn.functional.", "torch.linalg.", "torch.fft.", "torch.special.",
      "torchvision.ops.", "torch.nn.init.", "torch.sparse.", "torch.masked."};
  for (auto p : prefixes) {
    if (starts_with(q, p)) return q.find('.', p.size()) == std::string_view::npos;
  }
  return false;
}

}  // namespace

bool is_dynamic_shape_function(std::string_view q) {
  static const Set s = {"torch.nonzero", "torch.argwhere", "torch.unique", "torch.unique_consecutive",
                        "torch.masked_select", "torch.bincount", "torchvision.ops.nms", "torchvision.ops.batched_nms",
                        "torchvision.ops.boxes.nms", "torchvision.ops.boxes.batched_nms", "torch.ops.torchvision.nms",
                        "torchvision.ops.remove_small_boxes"};
  return s.count(q) > 0;
}

bool is_dynamic_shape_method(std::string_view name) {
  static const Set s = {"nonzero", "argwhere", "unique", "unique_consecutive", "masked_select", "bincount"};
  return s.count(name) > 0;
}

bool is_reduction(std::string_view name) {
  static const Set s = {"sum", "mean", "max", "min", "amax", "amin", "prod", "norm", "all", "any", "std", "var",
                        "median", "logsumexp", "argmax", "argmin", "count_nonzero", "nansum", "nanmean"};
  return s.count(name) > 0;
}

Value call_result(std::string_view q) {
  std::string_view name = last_component(q);
  if (q == "torch.equal") return Value::of(ValueKind::TensorData);
  if (q == "torch.tensor" || q == "torch.as_tensor" || q == "torch.from_numpy" || q == "torch.Tensor") {
    return Value::tensor();
  }
  if (q == "torch.nn.Parameter" || q == "torch.nn.parameter.Parameter" || q == "torch.nn.Buffer") return Value::tensor();
  if (q == "torchvision.ops.nms" || q == "torchvision.ops.batched_nms" || q == "torchvision.ops.boxes.nms" ||
      q == "torchvision.ops.boxes.batched_nms") {
    return Value::tensor(TensorDtype::Integer);
  }
  if (q == "torch.where") return Value::tensor();  // the one-argument form is handled by callers
  bool direct_torch = starts_with(q, "torch.") && q.find('.', 6) == std::string_view::npos;
  if (direct_torch || in_tensor_namespace(q)) {
    if (is_module_class(q)) return Value::of(ValueKind::Module);
    if (!name.empty() && std::isupper(static_cast<unsigned char>(name[0]))) return Value::unknown();
    if (name.starts_with("is_") || name.starts_with("set_") || name.starts_with("get_") ||
        name.starts_with("_")) {
      return Value::of(ValueKind::Static);
    }
    if (direct_torch && non_tensor_torch_functions().count(name)) {
      return Value::of(ValueKind::Static);
    }
    if (bool_functions().count(name)) return Value::tensor(TensorDtype::Bool);
    if (index_functions().count(name)) return Value::tensor(TensorDtype::Integer);
    if (name == "split" || name == "chunk" || name == "unbind" || name == "meshgrid" ||
        name == "broadcast_tensors" || name == "tensor_split" || name == "sort" ||
        name == "topk" || name == "max" || name == "min" || name == "unique" ||
        name == "kthvalue" || name == "median" || name == "mode" || name == "std_mean" ||
        name == "var_mean") {
      // Several results (values, indices) or one: elements are tensors either way.
      if (name == "max" || name == "min" || name == "median" || name == "unique") return Value::tensor();
      return Value::of(ValueKind::TensorSequence);
    }
    return Value::tensor();
  }
  if (is_module_class(q)) return Value::of(ValueKind::Module);
  return Value::unknown();
}

Value tensor_method_result(std::string_view name) {
  if (data_methods().count(name)) return Value::of(ValueKind::TensorData);
  if (non_tensor_methods().count(name)) return Value::of(ValueKind::Static);
  if (name == "data_ptr" || name == "untyped_storage" || name == "storage") return Value::of(ValueKind::Static);
  if (name == "split" || name == "chunk" || name == "unbind" || name == "tensor_split" ||
      name == "sort" || name == "topk" || name == "kthvalue") {
    return Value::of(ValueKind::TensorSequence);
  }
  if (bool_methods().count(name)) return Value::tensor(TensorDtype::Bool);
  if (index_methods().count(name)) return Value::tensor(TensorDtype::Integer);
  if (float_methods().count(name)) return Value::tensor(TensorDtype::Floating);
  if (name.starts_with("__") || name == "register_hook" || name == "backward" || name == "apply_" ||
      !is_tensor_method(name)) {
    return Value::unknown();
  }
  return Value::tensor();
}

Value tensor_attribute(std::string_view name) {
  if (static_attributes().count(name)) return Value::of(ValueKind::Static);
  if (tensor_attributes().count(name)) return Value::tensor();
  return Value::unknown();
}

bool is_module_class(std::string_view q) {
  if (!starts_with(q, "torch.nn.") && !starts_with(q, "torchvision.models.") &&
      !starts_with(q, "torchvision.ops.")) {
    return false;
  }
  std::string_view name = last_component(q);
  if (name.empty() || !std::isupper(static_cast<unsigned char>(name[0]))) return false;
  return name != "Parameter" && name != "Buffer" && name != "ParameterList" && name != "ParameterDict";
}

bool makes_parameters(std::string_view q) {
  if (!starts_with(q, "torch.nn.")) return false;
  static const Set s = {"Parameter", "Linear", "Bilinear", "LazyLinear", "Conv1d", "Conv2d", "Conv3d",
                        "ConvTranspose1d", "ConvTranspose2d", "ConvTranspose3d", "LazyConv1d", "LazyConv2d",
                        "LazyConv3d", "Embedding", "EmbeddingBag", "LayerNorm", "GroupNorm", "RMSNorm",
                        "BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "SyncBatchNorm", "MultiheadAttention",
                        "LSTM", "GRU", "RNN", "LSTMCell", "GRUCell", "RNNCell", "PReLU", "Transformer",
                        "TransformerEncoderLayer", "TransformerDecoderLayer"};
  return s.count(last_component(q)) > 0;
}

bool registers_module_state(std::string_view q) {
  return q == "torch.nn.Parameter" || q == "torch.nn.parameter.Parameter" || q == "torch.nn.Buffer" ||
         q == "torch.nn.parameter.Buffer";
}

bool is_module_move_or_cast(std::string_view m) {
  return m == "to" || m == "cuda" || m == "cpu" || m == "float" || m == "half" || m == "double" || m == "bfloat16";
}

bool returns_receiver(std::string_view m) {
  return is_module_move_or_cast(m) || m == "eval" || m == "train" || m == "requires_grad_" || m == "manual_seed";
}

bool makes_tokenizer(std::string_view q) {
  if (!starts_with(q, "transformers.") && !starts_with(q, "tokenizers.")) return false;
  std::string_view name = last_component(q);
  if (name == "from_pretrained" || name == "from_file") name = last_component(q.substr(0, q.size() - name.size() - 1));
  return name.find("Tokenizer") != std::string_view::npos;
}

bool is_library_module_base(std::string_view q) {
  static const Set s = {"pytorch_lightning.LightningModule", "pytorch_lightning.core.LightningModule",
                        "pytorch_lightning.core.module.LightningModule", "lightning.LightningModule",
                        "lightning.pytorch.LightningModule", "lightning.pytorch.core.module.LightningModule",
                        "transformers.PreTrainedModel", "transformers.modeling_utils.PreTrainedModel",
                        "diffusers.ModelMixin", "diffusers.models.ModelMixin",
                        "diffusers.models.modeling_utils.ModelMixin", "mmengine.model.BaseModule",
                        "mmengine.model.base_module.BaseModule", "mmcv.runner.BaseModule",
                        "mmcv.runner.base_module.BaseModule"};
  return s.count(q) > 0;
}

bool is_compile_function(std::string_view q) {
  static const Set s = {"torch.compile", "torch.export.export", "torch.export", "torch.onnx.export",
                        "torch.onnx.dynamo_export", "torch.fx.symbolic_trace",
                        "torch.fx._symbolic_trace.symbolic_trace", "torch.jit.trace",
                        "torch.jit.trace_module", "torch._dynamo.export", "torch._dynamo.explain",
                        "torch._dynamo.optimize"};
  return s.count(q) > 0;
}

bool is_compile_decorator(std::string_view q) {
  return q == "torch.compile" || q == "torch._dynamo.optimize";
}

bool is_dynamo_disable(std::string_view q) {
  return q == "torch.compiler.disable" || q == "torch._dynamo.disable" || q == "torch._dynamo.eval_frame.disable" ||
         q == "torch._disable_dynamo" || q == "torch._compile._disable_dynamo";
}

uint8_t opaque_decorator(std::string_view q) {
  constexpr uint8_t fx = static_cast<uint8_t>(Tracer::Fx), dynamo = static_cast<uint8_t>(Tracer::Dynamo);
  // Dynamo's opt-outs. They are the escape hatch users write for every
  // target, so they hide the function from the FX target too.
  static const Set opt_outs = {"torch.compiler.disable", "torch._dynamo.disable", "torch._dynamo.eval_frame.disable",
                               "torch._disable_dynamo", "torch._compile._disable_dynamo",
                               "torch.compiler.allow_in_graph", "torch._dynamo.allow_in_graph"};
  if (opt_outs.count(q)) return fx | dynamo;
  // A leaf for FX, which records a call to it; Dynamo traces through.
  if (q == "torch.fx.wrap") return fx;
  // Compiled by TorchScript: the FX tracer cannot call it with its proxies, while
  // TorchDynamo (torch.export too) traces the Python it was compiled from.
  // (jit.ignore and jit.unused matter to TorchScript only: both tracers trace through them.)
  if (q == "torch.jit.script") return fx;
  // A custom operator's implementations: every tracer records one call of the operator and
  // runs its fake implementation on fake tensors; none reads their Python.
  static const Set custom_op = {"torch.library.custom_op", "torch._library.custom_ops.custom_op",
                                "torch.library.register_fake", "torch.library.impl_abstract", "torch.library.impl",
                                "torch.library.register_kernel", "torch.library.register_autograd"};
  if (custom_op.count(q)) return fx | dynamo;
  static constexpr std::string_view registrations[] = {".register_fake", ".register_kernel", ".register_autograd",
                                                       ".impl_abstract"};
  for (std::string_view r : registrations) {
    if (q.ends_with(r) && !q.starts_with("torch.")) return fx | dynamo;  // `@my_op.register_fake`
  }
  return 0;
}

bool is_pure_arithmetic(std::string_view q) {
  static const Set functions = {"torch.div", "torch.true_divide", "torch.floor_divide", "torch.remainder",
                                "torch.fmod", "torch.add", "torch.sub", "torch.subtract", "torch.mul",
                                "torch.multiply", "torch.ceil", "torch.floor", "torch.round", "torch.trunc",
                                "torch.sqrt", "torch.exp", "torch.log", "torch.log2", "torch.pow", "torch.abs",
                                "torch.neg", "torch.clamp", "torch.minimum", "torch.maximum"};
  return functions.count(q) > 0;
}

std::optional<TensorDtype> tensor_class_dtype(std::string_view q) {
  if (q == "torch.Tensor" || q == "torch.nn.Parameter") return TensorDtype::Unknown;
  if (q == "torch.BoolTensor") return TensorDtype::Bool;
  if (q == "torch.LongTensor" || q == "torch.IntTensor") return TensorDtype::Integer;
  if (q == "torch.FloatTensor" || q == "torch.DoubleTensor" || q == "torch.HalfTensor") return TensorDtype::Floating;
  return std::nullopt;
}

HatchPredicate hatch_predicate(std::string_view q) {
  static const Set compiling = {"torch.compiler.is_compiling", "torch._dynamo.is_compiling",
                                "torch.fx._symbolic_trace.is_fx_tracing",
                                "torch.fx._symbolic_trace.is_fx_symbolic_tracing",
                                "torch.compiler.is_dynamo_compiling", "torch._utils.is_compiling",
                                "torch._dynamo.external_utils.is_compiling"};
  if (compiling.count(q)) return HatchPredicate::IsCompiling;
  // torchvision._is_tracing is torchvision's spelling of torch.jit.is_tracing().
  if (q == "torch.jit.is_scripting" || q == "torch.jit.is_tracing" || q == "torch._C._get_tracing_state" ||
      q == "torchvision._is_tracing") {
    return HatchPredicate::IsScriptingOrTracing;
  }
  if (q == "torch.onnx.is_in_onnx_export") return HatchPredicate::IsInOnnxExport;
  if (q == "torch.compiler.is_exporting") return HatchPredicate::IsExporting;
  return HatchPredicate::NotAHatch;
}

}  // namespace fxlint::torch_api
