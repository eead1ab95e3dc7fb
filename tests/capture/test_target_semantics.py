"""The `export` and `dynamo` targets' severities against the real compilers.

Each export pattern is exported with torch.export (strict and non-strict);
where the export fails, `fxlint check --target export` has an error on the
line it fails at, and where it succeeds, fxlint gives no error for the file
(warnings are allowed: FX101 and FX301-FX303 are warnings there). The patterns
fxlint only warns about also export to ONNX and match eager in ONNX Runtime.

Each Dynamo pattern runs under `torch._dynamo.explain`: the lines where it
breaks are exactly the lines where `fxlint check --target dynamo` has an error."""

import importlib.util
import json
import os
import pathlib
import subprocess
import sys
import traceback

import numpy as np
import pytest
import torch

FXLINT = os.environ.get("FXLINT_BIN", "")
pytestmark = pytest.mark.skipif(not os.path.isfile(FXLINT), reason="FXLINT_BIN names no built fxlint")

HEADER = ("import copy\nimport random\nimport warnings\nfrom typing import Dict, List, Optional\n\nimport numpy as np\nimport torch\n"
          "from torch import nn, Tensor\n\n\n")

# name -> (forward body of class M, helpers after it, whether it exports: True, False,
# "strict" where only strict export does, or "non-strict" where only non-strict does)
CASES = {
    "item_arithmetic": ("return x * x.sum().item()", "", True),
    "item_branch": ("v = x.sum().item()\n        if v > 0:\n            return x\n        return -x", "", False),
    # torch.export turns the assert into a runtime assert of the program.
    "item_assert": ("v = x.sum().item()\n        assert v > -1000\n        return x * 2", "", True),
    "item_flag_ternary": ("g = (x > 0).any().item()\n        return x if g else -x", "", False),
    "mask_read": ("return x[x > 0]", "", True),
    # A tensor made from the values of traced ones (MONAI's MedianFilter); strict export,
    # through Dynamo, takes `torch.tensor` of them.
    "tensor_of_tensors": ("return torch.tensor([x.sum(), x.max()]) * 2", "", "strict"),
    "as_tensor_of_tensors": ("return torch.as_tensor((x[0], x[1])) * 2", "", False),
    # torch.equal gives a Python bool from both tensors' values: it fails at the call.
    "torch_equal": ("same = torch.equal(x, x * 2)\n        if same:\n            return x\n        return x * 3", "",
                    False),
    # A dimension read from tensor data (MONAI's Dice loss): the reduction must know it.
    "dims_read_from_tensor_data": ("dims = torch.arange(0, 1).tolist()\n        return x.sum(dim=dims) * 2", "", False),
    "dims_handed_to_a_helper": ("return reduce(x, torch.arange(0, 1).tolist())",
                                "def reduce(x: torch.Tensor, axes: List[int]):\n    return torch.sum(x, axes) * 2\n",
                                False),
    # torch.distributions checks a distribution's arguments, and a log_prob's value, unless
    # built with validate_args=False.
    "distribution_arguments": ("d = torch.distributions.Normal(x, x.abs() + 1)\n        return d.mean", "", False),
    "distribution_log_prob": ("return torch.distributions.Normal(0.0, 1.0).log_prob(x)", "", False),
    "distribution_without_checks": ("d = torch.distributions.Normal(x, x.abs() + 1, validate_args=False)\n"
                                    "        return d.log_prob(x * 2)", "", True),
    # torch.export takes a sparse layout that Dynamo cannot hold.
    "sparse_layout": ("return torch.outer(x, x).to_sparse_coo().to_dense() + 1", "", True),
    "nonzero": ("return x.nonzero()", "", True),
    # A set hashes its values: symbols read from tensor data have no hash.
    "set_of_values_read_from_data": ("lens = [v + 1 for v in (x > 0).int().tolist()]\n"
                                     "        return x * len(set(lens))", "", False),
    # torch.export runs the arm `torch.compiler.is_exporting()` picks, and not the loop after it.
    "exporting_guard": ("if torch.compiler.is_exporting():\n            return x.clamp(0, 1)\n"
                        "        while (x > 1).any():\n            x = x / 2\n        return x", "", True),
    # Non-strict export reads a float tensor's list as symbols, as an integer one's.
    "float_tolist_arithmetic": ("w = x.sum(0, keepdim=True).tolist()\n        return x * w[0]", "", "non-strict"),
    # A helper that keeps its argument's shape, which another module calls with masked rows:
    # this call passes whole rows, and the loop over them exports.
    "shape_keeping_helper_of_whole_rows": ("for row in running(x):\n            x = x + row\n        return x",
                                           "def running(x):\n    return torch.cumsum(x, 0)\n\n\n"
                                           "class Other(nn.Module):\n    def forward(self, s):\n"
                                           "        return running(s[s > 0])\n", True),
    # A module that another module calls with masked rows: this call passes whole rows,
    # and the branch on their count exports.
    "module_of_masked_rows_elsewhere": ("h = self.layer(x)\n        if h.shape[0] == 1:\n            return h\n"
                                        "        return h * 2",
                                        "class Layer(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
                                        "        self.weight = nn.Parameter(torch.ones(8))\n\n"
                                        "    def forward(self, h):\n        h = h.float()\n"
                                        "        return self.weight * h.to(torch.float32)\n\n\n"
                                        "class Other(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
                                        "        self.layer = Layer()\n\n    def forward(self, s):\n"
                                        "        return self.layer(s[s > 0])\n", True),
    # One index tensor per dimension, each of data-dependent length: a loop over one.
    "nonzero_as_tuple_loop": ("starts = (x > 0).nonzero(as_tuple=True)[0]\n        for s in starts:\n"
                              "            x = x + s\n        return x", "", False),
    "where_one_argument": ("return torch.where(x > 0)[0]", "", True),
    "unique": ("return torch.unique(x)", "", True),
    "mask_assign": ("y = x.clone()\n        y[y > 0] = 0\n        return y", "", True),
    "mask_augmented_assign": ("y = x.clone()\n        y[y > 0] += 1\n        return y", "", True),
    "mask_numel_branch": ("y = x[x > 0]\n        if y.numel() == 0:\n            return x\n        return y", "", False),
    "where_rows_branch": ("k = torch.where(x > 0)[0]\n        if len(k) > 3:\n            return x[k]\n        return x",
                          "", False),
    "rows_loop": ("k = torch.where(x > 0)[0]\n        s = x\n        for i in range(len(k)):\n            s = s + 1\n"
                  "        return s", "", False),
    # Values read with `.tolist()`, through list(reversed(...)), decide a branch.
    "reversed_tolist_branch": ("times = list(reversed(torch.linspace(-1, 9, steps=5).int().tolist()))\n"
                               "        for t in times:\n            if t < 0:\n                x = x * 2\n"
                               "        return x", "", False),
    "shape_of_input_branch": ("if x.shape[0] > 3:\n            return x * 2\n        return x", "", True),
    "reduction_of_rows": ("y = x[x > 0]\n        if y.sum().dim() == 0:\n            return y.sum() * x\n        return x",
                          "", True),
    "tensor_branch": ("if x.sum() > 0:\n            return x\n        return -x", "", False),
    "item_loop": ("s = x\n        for _ in range(int(x.argmax())):\n            s = s + 1\n        return s", "", False),
    "helper_rows_branch": ("return helper(x, x[x > 0])",
                           "def helper(x: Tensor, boxes: Tensor):\n    if boxes.numel() > 4:\n"
                           "        return x\n    return boxes * 2\n", False),
    # What a helper returns, unpacked from a tuple: rows kept by nonzero.
    "rows_returned_in_a_tuple": ("boxes, n = kept(x)\n        if boxes.shape[0] > n:\n            return boxes\n"
                                 "        return x",
                                 "def kept(x):\n    keep = torch.nonzero(x > 0).squeeze(1)\n    return x[keep], 2\n", False),
    # A list a helper builds with append; len() of their concatenation must be a Python int.
    "len_of_appended_rows": ("rois = torch.cat(collect(x))\n        return x.new_zeros((len(rois), 2))",
                             "def collect(x):\n    out = []\n    for r in x.view(2, -1):\n"
                             "        out.append(r[r > 0])\n    return out\n", "strict"),
    # Rows kept by nonzero, held in the entries of dicts a helper appends to a list.
    "rows_in_dict_entries": ("s = x\n        for d in detect(x):\n            for b in d[\"boxes\"]:\n"
                             "                s = s + b\n        return s",
                             "def detect(x):\n    result = []\n    for r in x.view(2, -1):\n"
                             "        keep = torch.nonzero(r > 0).squeeze(1)\n"
                             "        result.append({\"boxes\": r[keep], \"scores\": r[keep] * 2})\n"
                             "    return result\n", False),
    # The same list handed to an annotated helper that unpacks `enumerate(zip(...))`.
    "len_of_dict_entry": ("return count(detect(x), [1.0, 2.0]) * x",
                          "def detect(x):\n    return [{\"boxes\": r[torch.nonzero(r > 0).squeeze(1)]} "
                          "for r in x.view(2, -1)]\n\n\n"
                          "def count(dets: List[Dict[str, Tensor]], weights):\n    n = 0.0\n"
                          "    for i, (d, w) in enumerate(zip(dets, weights)):\n        n += len(d[\"boxes\"]) * w\n"
                          "    return n\n", "strict"),
    "rows_iterated": ("rows = x[torch.nonzero(x > 0).squeeze(1)]\n        s = x\n        for r in rows:\n"
                      "            s = s + r\n        return s", "", False),
    # A nested helper of forward that changes the call's own dict and name: no state outside the trace.
    "closure_of_the_call": ("status = {}\n        n = 0\n\n        def note(k, v):\n            nonlocal n\n"
                            "            status[k] = v\n            n = n + 1\n\n        note(\"a\", 1)\n"
                            "        return x * len(status) + n", "", True),
    # A tensor compared with a string is a Python bool.
    "tensor_compared_with_a_string": ("if x != \"Rep\":\n            return x * 2\n        return x", "", True),
    # Sizes from a number read out of data stay symbols; int() of that number needs its value.
    "sizes_from_item": ("n = x.argmax().item() + 1\n"
                        "        return torch.arange(n).float().sum() * x + torch.zeros(n).sum() + x[:n].sum()", "", True),
    # A copy to the host is an op of the exported program; export runs locals() and a deep copy
    # of plain values as Python.
    # A tensor assigned to a registered buffer is the buffer's update in non-strict export.
    "registered_buffer_assigned": ("return self.layer(x)",
                                   "class Layer(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
                                   "        self.register_buffer(\"last\", torch.zeros(8))\n\n"
                                   "    def forward(self, x):\n        self.last = x * 2\n        return x + 1\n", True),
    "host_copy": ("return x.cpu() * 2 + x.to(\"cpu\")", "", True),
    "locals_read": ("return x * len(locals())", "", True),
    "deepcopy_of_a_config": ("c = copy.deepcopy(CFG)\n        return x * c.n",
                             "class Cfg:\n    def __init__(self):\n        self.n = 2\n\n\nCFG = Cfg()\n", True),
    "int_of_item": ("n = int(x.argmax().item())\n        return x * n", "", "strict"),
    "float_of_item": ("v = x.max().item()\n        return x * float(v)", "", "strict"),
    # A sub-module with parameters moved or cast in forward: non-strict export cannot swap them.
    "submodule_cast_in_forward": ("self.layer.to(x.dtype)\n        return self.layer(x)",
                                  "class Layer(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
                                  "        self.lin = nn.Linear(8, 8)\n\n    def forward(self, x):\n"
                                  "        return self.lin(x)\n", "strict"),
    # One holding buffers only is moved.
    "buffers_moved_in_forward": ("self.layer.to(x.device)\n        return self.layer(x)",
                                 "class Layer(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
                                 "        self.register_buffer(\"w\", torch.ones(8))\n\n    def forward(self, x):\n"
                                 "        return x * self.w\n", True),
    # Non-strict export needs an assert's tensor test while tracing (strict export keeps it).
    "tensor_assert": ("assert (x > -100).all()\n        return x * 2", "", "strict"),
    # A slice bound read from a tensor is a symbol; the number of points of linspace is not.
    "slice_bound_from_a_tensor": ("n = (x > 0).sum()\n        return x[:n] * 2", "", True),
    "slice_store_bound_from_a_tensor": ("n = (x > 0).sum()\n        y = x.clone()\n        y[:n] = 0\n        return y",
                                        "", "strict"),
    "linspace_points_from_data": ("n = x.argmax() + 2\n        return torch.linspace(0, 1, n).sum() * x", "", False),
    "flag_through_module": ("return self.layer(x, flag=(x > 0).any().item())",
                            "class Layer(nn.Module):\n    def forward(self, x, flag=None):\n        if flag:\n"
                            "            return x * 2\n        return x\n", False),
}


# name -> (forward body of class M, what its __init__ adds)
DYNAMO_CASES = {
    "item": ("return x * x.sum().item()", ""),
    "item_then_branch": ("v = x.sum().item()\n        if v > 0:\n            return x\n        return -x", ""),
    "mask_read": ("return x[x > 0] * 2", ""),
    # `model.proj(x)` resolves to nothing fxlint knows: only a tensor takes a mask.
    "mask_read_of_an_unknown": ("return packed(self, x)", "        self.proj = nn.Linear(8, 8)\n",
                                "def packed(model, x):\n    h = model.proj(x)\n    return h[x > 0].sum() * 2\n"),
    "mask_assign": ("y = x.clone()\n        y[y > 0] = 0\n        y[y < -1] = x.sum()\n        return y * 2", ""),
    "nonzero": ("return x.nonzero().float() + 1", ""),
    "tensor_branch": ("if x.sum() > 0:\n            return x\n        return -x", ""),
    "builtin_max_of_a_tensor_and_a_number": ("lo = max(x[0], 0)\n        hi = min(x[1], 2.5)\n        return x * lo + hi",
                                             ""),
    "lstm": ("h = torch.relu(x) * 3 + 1\n        y, _ = self.rnn(h.view(1, 1, 8))\n        return y * 2",
             "        self.rnn = nn.LSTM(8, 8)\n"),
    "print": ("y = x * 2\n        print(y)\n        return y + 1", ""),
    # Dynamo traces NumPy on tensors (torch._numpy): no break, and no error.
    "numpy": ("a = x.detach().numpy()\n        b = np.tanh(a) + np.asarray(x).mean() + np.random.rand(8)\n"
              "        return torch.from_numpy(b) * 2", ""),
    # The array stays in the graph; a branch on it, or its data read into Python, breaks there.
    "numpy_array_branch": ("a = x.detach().numpy().cumsum(0)\n        if a[0] > a[1]:\n            return x * 2\n"
                           "        return x", ""),
    "numpy_array_read": ("a = x.detach().numpy()\n        n = int(np.argmax(a))\n        return x * n", ""),
    "numpy_array_slice_bound": ("a = x.detach().numpy()\n        return x[:np.argmax(a)] * 2", ""),
    "numpy_array_tolist": ("a = x.detach().numpy()\n        return x * len(a.tolist())", ""),
    # A method of a project class, on a parameter annotated with it and on an instance made
    # in the call (whisper's `DecodingTask(model, options).run(mel)`): it runs, and gives its result.
    "method_of_an_annotated_module_parameter": (
        "return x * detect(self.net, x)", "        self.net = Net()\n",
        "class Net(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
        "        self.lin = nn.Linear(8, 8)\n\n    def logits(self, x: torch.Tensor) -> torch.Tensor:\n"
        "        return self.lin(x)\n\n\ndef detect(model: Net, x: torch.Tensor):\n"
        "    return model.logits(x).sum().item()\n"),
    "method_of_a_construction": (
        "return Task(2.0).run(x)", "",
        "class Task:\n    def __init__(self, scale):\n        self.scale = scale\n\n"
        "    def run(self, x):\n        return x * x.sum().item()\n"),
    # torch.equal reads both tensors' values: the break is at the call, not at the branch.
    "torch_equal": ("same = torch.equal(x, x * 2)\n        if same:\n            return x\n        return x * 3", ""),
    # Reading a property runs its getter (torchtune's `KVCache.size`).
    "property_getter": (
        "return x * self.cache.size", "        self.cache = Cache()\n",
        "class Cache(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
        "        self.register_buffer(\"pos\", torch.arange(4), persistent=False)\n\n    @property\n"
        "    def size(self):\n        return self.pos[1].item()\n"),
    # A resize to sizes read from a tensor reads them: Dynamo breaks at the call.
    "interpolate_to_sizes_of_tensor_data": (
        "s = (x[:2].abs() * 4 + 1).long()\n        y = torch.nn.functional.interpolate(x.view(1, 1, 8), size=s[0])\n"
        "        return y * 2", ""),
    "rows_loop": ("k = torch.where(x > 0)[0]\n        s = x\n        for i in range(len(k)):\n            s = s + 1\n"
                  "        return s", ""),
    "rows_iterated": ("k = torch.where(x > 0)[0]\n        s = x\n        for i in k:\n            s = s + i\n"
                      "        return s", ""),
    # Dynamo models Python's random generator: a drawn number is a graph input, until a branch needs it.
    "random_arithmetic": ("return x * random.random() + random.randint(1, 3) * random.uniform(0.5, 1.5)", ""),
    # Only tensor operations take such a number: Python arithmetic on it does not trace.
    "random_tensor_operations": ("p = random.random()\n        return x * p * 2 + x * random.randint(1, 3)", ""),
    "random_python_arithmetic": ("n = random.randrange(3)\n        n += 1\n        return x * n", ""),
    "random_branch": ("if random.random() < 2.0:\n            return x * 2\n        return x", ""),
    "random_gauss": ("return x * random.gauss(0.0, 1.0)", ""),
    "deepcopy_of_numbers": ("sizes = copy.deepcopy((2, 4))\n        return x.view(sizes) * 2", ""),
    "tensor_compared_with_a_string": ("if x != \"Rep\":\n            return x * 2\n        return x", ""),
    "mask_augmented_assign": ("y = x.clone()\n        y[y > 0] += 1\n        return y * 2", ""),
    "module_hook": ("h = self.lin.register_forward_hook(lambda m, a, o: None)\n        y = self.lin(x)\n"
                    "        h.remove()\n        return y", "        self.lin = nn.Linear(8, 8)\n"),
    "split_sizes_from_tensor_rows": ("shapes = (x[:4] * 0).long().view(2, 2) + 2\n"
                                     "        parts = x.split([h * w for h, w in shapes])\n        return parts[0] * 2", ""),
    # Python's max() of one tensor is an element of it: traced, until a branch needs it.
    "builtin_max_of_one_tensor": ("m = max(x)\n        if m > 100:\n            return x\n        return x * m", ""),
    "sdp_kernel_context": ("q = x.view(1, 1, 2, 4)\n        with torch.backends.cuda.sdp_kernel(enable_math=True):\n"
                           "            y = torch.nn.functional.scaled_dot_product_attention(q, q, q)\n"
                           "        return y.view(8) + 1", ""),
    "created_with_requires_grad": ("return x * 2 + torch.zeros(8, requires_grad=True)", ""),
    "str_of_a_tensor": ("key = str(x)\n        return x * len(key)", ""),
    "new_full_tensor_fill": ("return x.new_full((4, 1), x[0]) * 2 + torch.full((4, 1), x[1])", ""),
    "jit_isinstance": ("if torch.jit.isinstance(x, torch.Tensor):\n            x = x + 1\n        return x * 2", ""),
    "requires_grad_set": ("g = torch.arange(8.0)\n        g.requires_grad = False\n        return x + g", ""),
    "constructor_tensor_through_a_method": ("if self.scale[0]:\n            x = x * 2\n        return x",
                                            "        self.scale = torch.ones(3).float()\n"),
    "mask_from_torch_any": ("m = torch.any(x.view(2, 4) > 0, dim=1)\n        return x.view(2, 4)[m] * 2", ""),
    # An assert's message runs only when it fails; output_size= makes the length static.
    "assert_message": ("assert x.shape[0] == 8, f\"bad {x.tolist()}\"\n        return x * 2", ""),
    "repeat_interleave_output_size": ("r = (x > 100).long() + 1\n"
                                      "        return x.repeat_interleave(r, dim=0, output_size=8) * 2", ""),
    # A copy to the host and a device synchronization are ops in Dynamo's graph.
    "host_copy_and_synchronize": ("y = x.cpu() + x.to(\"cpu\")\n        torch.cuda.synchronize()\n"
                                  "        return y * 2", ""),
    "warning_filter": ("warnings.simplefilter(\"ignore\")\n        return x * 2", ""),
    "sizes_read_from_data": ("n = int(x.sum().item()) % 3 + 1\n        y = x[:n] * torch.arange(n).sum()\n"
                             "        for i in range(n):\n            y = y + i\n        return y", ""),
    "tensor_loop_bound": ("s = x\n        for i in range(x.sum().int() % 3 + 1):\n            s = s + i\n"
                          "        return s", ""),
    "numpy_generator_method": ("return x * self.rng.random()", "        self.rng = np.random.default_rng(0)\n"),
    "numpy_random_branch": ("if np.random.random() < 2.0:\n            return x * 2\n        return x", ""),
    "numpy_scalar_draw": ("return x * np.random.randint(1, 3)", ""),
    "numpy_array_draw": ("return x + torch.from_numpy(np.random.rand(8)).float()", ""),
    "autograd_grad": ("(g,) = torch.autograd.grad((x * self.w).sum(), [self.w])\n        return g + 1",
                      "        self.w = nn.Parameter(torch.ones(8))\n"),
    "assert_plain_message": ("assert (x > -100).all(), \"bad input\"\n        return x * 2", ""),
    "assert_computed_message": ("assert (x > -100).all(), f\"bad input {x.shape}\"\n        return x * 2", ""),
    "python_all_of_a_tensor": ("if all(x > 0):\n            return x * 2\n        return x", ""),
    "python_any_of_a_tensor": ("keep = any(x > 0)\n        return x * 2, keep", ""),
    # A logger from a project's wrapper of logging.getLogger, and transformers' own with its warning_once.
    "logger_from_a_wrapper": ("logger.warning(\"w\")\n        return x * 2", "",
                              "import logging\n\n\ndef get_logger(name):\n    return logging.getLogger(name)\n\n\n"
                              "logger = get_logger(__name__)\n"),
    "transformers_logger_warning_once": ("hf_logger.warning_once(\"w\")\n        return x * 2", "",
                                         "from transformers.utils import logging as hf_logging\n\n"
                                         "hf_logger = hf_logging.get_logger(__name__)\n"),
    "tqdm": ("bar = tqdm(range(2), disable=True)\n        return x * 2", "", "from tqdm import tqdm\n"),
    "resize_": ("b = torch.empty(0)\n        b.resize_(8)\n        return x + b.fill_(1)", ""),
    "numpy_generator_made": ("rng = np.random.default_rng(0)\n        return x * 2, rng", ""),
    # locals() Dynamo models as a dict; globals() it does not trace.
    "locals_and_globals": ("n = len(locals())\n        table = globals()\n        return x * n, table", ""),
    # A decorator's wrapper runs in place of the function: Dynamo traces it.
    "decorated_helper": ("return scaled(x)", "",
                         "def traced(fn):\n    def inner(*args):\n        print(\"calling\")\n"
                         "        return fn(*args)\n\n    return inner\n\n\n@traced\ndef scaled(x):\n"
                         "    return x * 2\n"),
    # A disabled function runs outside the graph, which ends at its call; allow_in_graph keeps one node.
    "disabled_helper": ("y = stats(x * 2)\n        return kept(y) + 1", "",
                        "@torch.compiler.disable\ndef stats(x):\n    return x * x.mean()\n\n\n"
                        "@torch.compiler.allow_in_graph\ndef kept(x):\n    return x * 2\n"),
    # torch's own spelling of the decorator, bare and with arguments.
    "disabled_by_torch_spelling": ("y = stats(x * 2)\n        y = y * 3 + stats_here(y)\n        return y + 1", "",
                                   "@torch._disable_dynamo\ndef stats(x):\n    return x * x.mean()\n\n\n"
                                   "@torch._disable_dynamo(recursive=False)\ndef stats_here(x):\n    return x * x.max()\n"),
    "disabled_method": ("y = self.inner(x * 2)\n        return y + 1", "        self.inner = Inner()\n",
                        "class Inner(nn.Module):\n    @torch.compiler.disable\n    def stats(self, x):\n"
                        "        return x * x.mean()\n\n    def forward(self, x):\n        return self.stats(x * 3) + 1\n"),
    # A method of a project class, called on a parameter annotated with it or on a local bound to it.
    "method_of_an_annotated_parameter": ("return scaled(Scorer(), x)", "",
                                         "class Scorer:\n    def top(self, x: Tensor):\n        return x.max().item()\n\n\n"
                                         "def scaled(s: Scorer, x):\n    return x * s.top(x)\n"),
    "method_of_a_local_instance": ("s = Scorer()\n        return x * s.top(x)", "",
                                   "class Scorer:\n    def top(self, x: Tensor):\n        return x.max().item()\n"),
    # A bound method kept in an attribute in __init__, then called.
    "method_bound_to_an_attribute": ("return self.inner(x) + 1", "        self.inner = Inner()\n",
                                     "class Inner(nn.Module):\n    def __init__(self, exact=True):\n"
                                     "        super().__init__()\n"
                                     "        self.loss = self.mat_loss if exact else self.pair_loss\n\n"
                                     "    def forward(self, x):\n        return self.loss(x * 3)\n\n"
                                     "    def mat_loss(self, mat):\n        return mat[mat > 0.5].sum() * 2\n\n"
                                     "    def pair_loss(self, mat):\n        return mat.sum()\n"),
    # `torch._check_tensor_all` of a tensor condition, as transformers' `torch_compilable_check` does.
    "check_tensor_all": ("compilable_check((x > -100).all(), 'bad')\n        return x * 2", "",
                         "def compilable_check(cond, msg):\n    if torch.compiler.is_compiling():\n"
                         "        if isinstance(cond, torch.Tensor):\n            torch._check_tensor_all(cond)\n"
                         "        else:\n            torch._check(cond)\n        return\n"
                         "    if not cond:\n        raise ValueError(msg)\n"),
    # A sub-module an attribute holds, made by a method that a subclass overrides.
    "sub_module_made_by_an_overridden_method": (
        "return self.loss(x) + 1", "        self.loss = PairLoss()\n",
        "class Distance(nn.Module):\n    def forward(self, x, y):\n        return (x - y).abs()\n\n\n"
        "class Scaled(nn.Module):\n    def forward(self, x, y):\n        return x * y\n\n\n"
        "class WithDistance(nn.Module):\n    def __init__(self, distance=None):\n        super().__init__()\n"
        "        self.distance = self.default_distance() if distance is None else distance\n\n"
        "    def default_distance(self):\n        return Scaled()\n\n\n"
        "class PairLoss(WithDistance):\n    def default_distance(self):\n        return Distance()\n\n"
        "    def forward(self, x):\n        mat = self.distance(x, x.flip(0))\n"
        "        if mat.sum() > 0:\n            return mat * 2\n        return mat\n"),
    # A parameter annotated `Tensor | tuple[Tensor, Tensor]`: indexed, it gives a tensor.
    "element_of_a_tensor_or_tuple_parameter": (
        "return first((x, x + 1)) + first(x)", "",
        "def first(state: Tensor | tuple[Tensor, Tensor]):\n    preds = state[0]\n"
        "    if preds.max() > 1:\n        return preds * 2\n    return preds\n"),
    # Unpacked from a helper whose body says nothing, annotated `-> Tuple[Tensor, Tensor]`.
    "mask_of_a_tuple_annotated_result": ("e = x.view(2, 4)\n        if e.is_sparse:\n            e, v = pairs(e)\n"
                                         "        return e[:, e[0] != e[1]] * 2", "",
                                         "from typing import Tuple\n\n\ndef pairs(adj) -> Tuple[Tensor, Tensor]:\n"
                                         "    return adj.indices(), adj.values()\n"),
    # A torch.Generator is an object Dynamo cannot trace: made in the graph, or passed to a draw.
    "generator_attribute": ("return x + torch.randn(8, generator=self.gen)",
                            "        self.gen = torch.Generator().manual_seed(0)\n"),
    "generator_made": ("g = torch.Generator()\n        return x * 2, g", ""),
    # Dynamo traces the Python a torch.jit.script function was compiled from.
    "jit_script_helper": ("return scripted(x)", "",
                          "@torch.jit.script\ndef scripted(x):\n    if x.sum() > 0:\n        return x * 2\n"
                          "    return x\n"),
    # `.data` set on a tensor the graph made breaks; on a parameter or an input it is traced.
    "data_set_on_a_computed_tensor": ("y = x * 3\n        y.data = torch.zeros_like(y)\n        return y + 1", ""),
    "data_updated_on_a_computed_tensor": ("y = x * 3\n        y.data += 1\n        return y + 1", ""),
    "data_set_on_a_parameter": ("w = self.lin.weight\n        w.data = w * 1.0\n        self.lin.bias.data = "
                                "self.lin.bias * 1.0\n        return self.lin(x)", "        self.lin = nn.Linear(8, 8)\n"),
    # A `length=None` parameter that every caller fills with a tensor is one.
    "optional_parameter_filled_by_callers": ("return scaled(x, x.abs())", "",
                                             "def scaled(x, length=None):\n    n = length.max().item()\n"
                                             "    return x * n\n"),
    # Sub-modules made by a project function that returns a module (DETR's _get_clones).
    "submodules_from_a_factory": ("h = x\n        for layer in self.layers:\n            h = layer(h)\n"
                                  "        if h.sum() > 0:\n            return h\n        return -h", "        self.layers = clones(nn.Linear(8, 8), 2)\n",
                                  "def clones(module, n):\n    return nn.ModuleList([copy.deepcopy(module) for _ in range(n)])\n"),
    # A module-level flag bound once to False: its arm never runs.
    "constant_flag": ("if VERBOSE:\n            print(x)\n        return x * 2", "", "VERBOSE = False\n"),
    # torch.onnx.is_in_onnx_export() is false under Dynamo: its arm never runs, the rest does.
    "onnx_export_guard": ("if torch.onnx.is_in_onnx_export():\n            warnings.warn(\"onnx\")\n"
                          "            return x\n        return x * x.sum().item()", ""),
    # Deleting an autograd.Function's context attribute: Dynamo runs the Function outside the graph.
    "deleted_function_context_attribute": ("return Scale.apply(x) + 1", "",
                                           "class Scale(torch.autograd.Function):\n    @staticmethod\n"
                                           "    def forward(ctx, x):\n        ctx.tmp = 3\n        del ctx.tmp\n"
                                           "        return x * 2\n\n    @staticmethod\n    def backward(ctx, g):\n"
                                           "        return g * 2\n"),
    # A number Python's random drew, as an index: Dynamo reads it out of the graph.
    "random_index": ("i = random.randrange(4)\n        return x[i] + [x, x + 1][random.randrange(2)]", ""),
    # Dynamo turns torch.distributions' argument checks off: no break.
    "distribution_arguments": ("d = torch.distributions.Normal(x, x.abs() + 1)\n        return d.log_prob(x)", ""),
    # Built-in max of a buffer and a number: Dynamo traces it as clamp and breaks at the branch.
    "max_of_a_buffer": ("m = max(self.pad, 2)\n        if x.shape[-1] <= m:\n            return x\n        return x + 1",
                        "        self.register_buffer(\"pad\", torch.tensor(3))\n"),
    # A sparse layout: Dynamo cannot hold the tensor ("Attempted to wrap sparse Tensor").
    "sparse_layout": ("a = torch.outer(x, x).to_sparse_coo()\n        return a.to_dense() + 1", ""),
    # A parameter annotated with a module-level alias of an optional tensor (torch_geometric's
    # `batch: OptTensor = None`), narrowed by an assert.
    "optional_tensor_alias": ("return scaled(x, (x > 0).long())", "",
                              "OptTensor = Optional[Tensor]\n\n\n"
                              "def scaled(x, batch: OptTensor = None):\n    assert batch is not None\n"
                              "    return x * (int(batch.max()) + 1)\n"),
    # A parameter annotated torch.BoolTensor is a mask, whatever the caller passes.
    "annotated_bool_mask": ("return masked(x, self.flags)", "        self.register_buffer('flags', torch.arange(8) % 2 == 0)\n",
                            "def masked(x, keep: torch.BoolTensor):\n    return x[keep.view(-1)] * 2\n"),
    # A parameter that may be a list or a tensor: `.item()` of its element, when a tensor.
    "item_of_a_union_parameter": ("return x * first(x)", "",
                                  "def first(grid: list[int] | torch.Tensor):\n    return grid[0].item() + 1\n"),
    # Annotated as a number, given a tensor: the branch on it is on a tensor.
    "tensor_for_an_int_annotation": ("return step(x, x.sum())", "",
                                     "def step(x, timestep: int):\n    if timestep - 1 >= 0:\n"
                                     "        return x * 2\n    return x\n"),
    # Annotated as numbers, given tensors: the branch on them is on a tensor.
    "tensors_for_an_int_annotation": ("return pad(x, (x.sum(), x.max()))", "",
                                      "def pad(x, sizes: tuple[int, int]):\n    a, b = sizes\n"
                                      "    if max(a, b) > 4:\n        return x * 2\n    return x\n"),
    # A project's is_compiling bound to whichever spelling torch has, inside bool(): the
    # check under `if not is_compiling():` is never traced.
    "compiling_helper_of_getattr": ("if not is_compiling():\n            if not bool((x > -100).all()):\n"
                                    "                raise ValueError('x')\n        return x * 2", "",
                                    "_c = getattr(torch.compiler, 'is_compiling', None) or "
                                    "getattr(torch._dynamo, 'is_compiling', None)\n\n\n"
                                    "def is_compiling():\n    return bool(_c()) if _c is not None else False\n"),
    # torch.compile is not exporting: the loop after the export-only arm is traced.
    "exporting_guard": ("if torch.compiler.is_exporting():\n            return x.clamp(0, 1)\n"
                        "        while (x > 1).any():\n            x = x / 2\n        return x", ""),
    # A mask or weights, told apart by the dtype: the mask index breaks.
    "dtype_checked_mask": ("return pick(x, x > 0).sum() + pick(x, x * 0.5).sum()", "",
                           "def pick(x, m):\n    if m.dtype == torch.bool:\n        return x[m] * 2\n"
                           "    return x * m\n"),
    # An optional parameter every caller passes a mask for.
    "optional_mask_parameter": ("return refine(x, (x > 0)[None])", "",
                                "def refine(x, mask: Optional[Tensor]):\n    if mask is not None:\n"
                                "        x = x[mask[0]]\n    return x.sum(0)\n"),
    # A deep copy of an object holding no tensor is traced.
    "deepcopy_of_a_config": ("c = copy.deepcopy(self.cfg)\n        return x * c.n", "        self.cfg = Cfg()\n",
                             "class Cfg:\n    def __init__(self):\n        self.n = 2\n"),
}


def module_source(body, helpers, init=""):
    if "class Layer" in helpers:
        init += "        self.layer = Layer()\n"
    return (HEADER + helpers + "\n\nclass M(nn.Module):\n    def __init__(self):\n        super().__init__()\n" + init +
            "\n    def forward(self, x):\n        " + body + "\n")


def error_lines(root, target):
    """{file stem: lines with an fxlint error} for `fxlint check --target TARGET root`."""
    out = subprocess.run([FXLINT, "check", "--target", target, "--output-format", "json", "--exit-zero", str(root)],
                         capture_output=True, text=True, check=True).stdout
    errors = {}
    for d in json.loads(out):
        if d["severity"] == "error":
            errors.setdefault(pathlib.Path(d["filename"]).stem, set()).add(d["location"]["row"])
    return errors


@pytest.fixture(scope="module")
def cases(tmp_path_factory):
    root = tmp_path_factory.mktemp("export_semantics")
    for name, (body, helpers, _) in CASES.items():
        (root / f"{name}.py").write_text(module_source(body, helpers))
    return root, error_lines(root, "export")


@pytest.fixture(scope="module")
def dynamo_cases(tmp_path_factory):
    root = tmp_path_factory.mktemp("dynamo_semantics")
    for name, (body, init, *helpers) in DYNAMO_CASES.items():
        # explain lists no break whose graph before it would be empty: start with tensor work.
        (root / f"{name}.py").write_text(module_source("x = x * 2\n        " + body, "".join(helpers), init))
    return root, error_lines(root, "dynamo")


@pytest.mark.parametrize("name", sorted(DYNAMO_CASES))
def test_dynamo_breaks_exactly_where_fxlint_reports_an_error(dynamo_cases, name):
    root, errors = dynamo_cases
    path = root / f"{name}.py"
    torch._dynamo.reset()
    explained = torch._dynamo.explain(load(path))(torch.randn(8))
    # The innermost frame in the case's file: Python's all() runs as Dynamo's polyfill below it.
    breaks = {[f.lineno for f in b.user_stack if f.filename == str(path)][-1] for b in explained.break_reasons
              if any(f.filename == str(path) for f in b.user_stack)}
    if explained.graph_count == 0:
        # Dynamo gave up on the whole frame (an unsupported operator where it cannot
        # resume after a break) and explain lists nothing: fullgraph names the line.
        torch._dynamo.reset()
        with pytest.raises(torch._dynamo.exc.Unsupported) as failed:
            torch.compile(load(path), fullgraph=True, backend="eager")(torch.randn(8))
        breaks = {[f.lineno for f in failed.value.real_stack if f.filename == str(path)][-1]}
    assert breaks == errors.get(name, set()), f"{name}: Dynamo breaks at {sorted(breaks)}"


def load(path):
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.M().eval()


def failure_line(exc, path):
    """The last line of `path` on the failure's traceback, following causes."""
    line = None
    while exc is not None:
        for frame in traceback.extract_tb(exc.__traceback__):
            if frame.filename == str(path):
                line = frame.lineno
        exc = exc.__cause__ or exc.__context__
    return line


def export(model, x, strict):
    # TorchDynamo turns torch.distributions' argument checks off for the process when it
    # first compiles; a user's export script has them on.
    torch.distributions.Distribution.set_default_validate_args(__debug__)
    try:
        torch.export.export(model, (x,), strict=strict)
        return None
    except Exception as e:  # the compiler's own error types vary by mode
        return e


@pytest.mark.parametrize("name", sorted(CASES))
def test_export_fails_exactly_where_fxlint_reports_an_error(cases, name):
    root, errors = cases
    path = root / f"{name}.py"
    x = torch.randn(8)
    non_strict = export(load(path), x, strict=False)
    strict = export(load(path), x, strict=True)
    exports = CASES[name][2]
    # "strict": only strict export (Dynamo, which keeps len() symbolic) takes it; "non-strict":
    # only non-strict does (strict refuses what Dynamo refuses, which `--target dynamo` reports).
    # fxlint models torch.export's default, non-strict.
    assert (non_strict is None) == (exports in (True, "non-strict")), f"non-strict export of {name}: {non_strict!r}"
    assert (strict is None) == (exports in (True, "strict")), f"strict export of {name}: {strict!r}"
    if non_strict is None:
        assert not errors.get(name), f"fxlint reports errors on lines {sorted(errors[name])} of {name}, which exports"
    else:
        line = failure_line(non_strict, path)
        assert line is not None, f"no frame of {path} in the failure: {non_strict!r}"
        assert line in errors.get(name, set()), (f"{name} fails at line {line}; fxlint errors on "
                                                 f"{sorted(errors.get(name, set()))}")


# name -> (forward body of class M, what its __init__ adds): each reads or sets one tensor's
# `.data`. Non-strict export fails on a read (the detached fake tensor is left among the
# program's constants, so the failure has no line of its own); a plain store it traces.
DATA_CASES = {
    "parameter_data_read": ("return x @ self.lin.weight.data.t()", True),
    "parameter_data_updated_in_place": ("self.lin.weight.data.mul_(1.0)\n        return self.lin(x)", True),
    "parameter_data_augmented": ("self.lin.weight.data += 0.0\n        return self.lin(x)", True),
    "buffer_data_copied_into": ("self.buf.data.copy_(x)\n        return x + self.buf", True),
    "input_data_read": ("return x.data * 2", True),
    "data_as_a_template": ("return x + x.data.new_zeros(8)", True),
    "local_data_item_set": ("y = x.clone()\n        y.data[0] = 1.0\n        return y", True),
    "data_metadata_only": ("return x.reshape(x.data.shape[0], -1) + x.data.size(0) + x.data.dim()", False),
    "parameter_data_set": ("self.lin.weight.data = self.lin.weight * 1.0\n        return self.lin(x)", False),
    "input_data_set": ("x.data = x * 2\n        return x + 1", False),
    "detached_instead": ("return x @ self.lin.weight.detach().t()", False),
}


@pytest.fixture(scope="module")
def data_cases(tmp_path_factory):
    root = tmp_path_factory.mktemp("data_semantics")
    init = "        self.lin = nn.Linear(8, 8)\n        self.register_buffer(\"buf\", torch.zeros(8))\n"
    for name, (body, _) in DATA_CASES.items():
        (root / f"{name}.py").write_text(module_source(body, "", init))
    return root, error_lines(root, "export")


@pytest.mark.parametrize("name", sorted(DATA_CASES))
def test_export_fails_on_data_exactly_where_fxlint_reports_an_error(data_cases, name):
    root, errors = data_cases
    failure = export(load(root / f"{name}.py"), torch.randn(8), strict=False)
    assert (failure is not None) == DATA_CASES[name][1], f"non-strict export of {name}: {failure!r}"
    assert bool(errors.get(name)) == (failure is not None), f"{name}: fxlint errors on {sorted(errors.get(name, []))}"


@pytest.mark.parametrize("name", ["item_arithmetic", "mask_read", "nonzero", "mask_assign"])
def test_warned_patterns_export_to_onnx_and_match_eager(cases, name, tmp_path):
    onnxruntime = pytest.importorskip("onnxruntime")
    root, _ = cases
    model = load(root / f"{name}.py")
    x = torch.randn(8)
    program = torch.onnx.export(model, (x,), dynamo=True, verbose=False)
    program.save(str(tmp_path / "m.onnx"))
    session = onnxruntime.InferenceSession(str(tmp_path / "m.onnx"))
    got = session.run(None, {session.get_inputs()[0].name: x.numpy()})[0]
    want = model(x).numpy()
    # float32 to within rounding: ONNX Runtime sums in its own order, so a value near 16
    # can differ in its last bit (1.9e-6); an absolute 1e-6 alone failed about one run in 20.
    assert got.shape == want.shape and np.allclose(got, want, rtol=1e-6, atol=1e-6)


# name -> (forward body of class M, helpers after it): draft export goes on past each
# data-dependent failure and lists them all, once per value.
DRAFT_CASES = {
    # A flag every caller fills with .item(), tested four times: torch.export guards on it at the
    # first test and knows it at the others.
    "flag_tested_again": ("return self.layer(x, flag=(x > 0).any().item())",
                          "class Layer(nn.Module):\n    def forward(self, x, flag=None, out=False):\n"
                          "        if flag:\n            x = x * 2\n        y = x + 1\n"
                          "        if not flag:\n            y = y - 1\n        if flag:\n            y = y * 3\n"
                          "        return (y, x) if (flag and out) else y\n"),
    # Rows kept by nonzero, summed in a loop and compared twice with the same literal: one guard;
    # a comparison with another literal is another. The two parts hold every element, so the
    # real total (8) passes both tests: draft export then goes on past each with what it assumed.
    "rows_sum_compared_again": ("total = 0\n        for b in [x[torch.nonzero(x > 0).squeeze(1)], x[x <= 0]]:\n"
                                "            total += b.size(0)\n        if total > 0:\n            x = x + 1\n"
                                "        if total > 0:\n            x = x - 1\n        if total > 5:\n"
                                "            x = x * 3\n        return x", ""),
    # A new value drawn from data is a new failure.
    "new_value_tested": ("n = x.sum().item()\n        if n:\n            x = x + 1\n        if n:\n"
                         "            x = x - 1\n        n = x.max().item()\n        if n:\n            x = x * 3\n"
                         "        return x", ""),
}


@pytest.mark.parametrize("name", sorted(DRAFT_CASES))
def test_draft_export_fails_exactly_where_fxlint_reports_an_error(tmp_path, name):
    if not hasattr(torch.export, "draft_export"):
        pytest.skip("this torch has no torch.export.draft_export")
    body, helpers = DRAFT_CASES[name]
    path = tmp_path / f"{name}.py"
    path.write_text(module_source(body, helpers))
    ep = torch.export.draft_export(load(path), (torch.randn(8),))
    report = ep._report
    names = getattr(report, "str_to_filename", {}) or {}
    failed = set()
    for f in report.failures:
        stack = [fr for fr in (f.data.get("user_stack") or []) if isinstance(fr, dict)]
        here = [fr["line"] for fr in stack if names.get(fr.get("filename"), fr.get("filename")) == str(path)]
        if here:
            failed.add(here[-1])
    assert failed, f"draft export of {name} lists no failure in {path}"
    assert failed == error_lines(tmp_path, "export").get(name, set())


def test_export_leaves_a_fake_tensor_in_a_functools_cache(tmp_path):
    # FX404 for export: the cache outlives the call, and non-strict export fills it with its fake tensor.
    body = "return x.masked_fill(causal(x.shape[-1]), 0.0)"
    helpers = "\n\nimport functools\n\n\n@functools.lru_cache\ndef causal(n):\n    return torch.ones(n, n).triu(1).bool()\n"
    path = tmp_path / "cached.py"
    path.write_text(module_source(body, helpers))
    call_line = next(i for i, line in enumerate(path.read_text().splitlines(), 1) if "causal(x" in line)
    assert error_lines(tmp_path, "export").get("cached") == {call_line}
    model = load(path)
    torch.export.export(model, (torch.randn(4, 4),), strict=False)
    assert type(model(torch.randn(4, 4))).__name__ == "FakeTensor"


def test_export_leaves_a_fake_tensor_in_a_buffer_registered_in_forward(tmp_path):
    # FX403 for export: non-strict export runs forward on the module, which keeps the buffer it made.
    body = ("if not hasattr(self, \"table\"):\n            self.register_buffer(\"table\", torch.ones(8), "
            "persistent=False)\n        return x * self.table")
    path = tmp_path / "lazy.py"
    path.write_text(module_source(body, ""))
    call_line = next(i for i, line in enumerate(path.read_text().splitlines(), 1) if "register_buffer" in line)
    assert error_lines(tmp_path, "export").get("lazy") == {call_line}
    model = load(path)
    torch.export.export(model, (torch.randn(8),), strict=False)
    assert type(model.table).__name__ == "FakeTensor"


def test_export_leaves_a_fake_tensor_in_an_attribute_from_a_nested_sub_module(tmp_path):
    # FX403 for export: what a sub-module's sub-module returns is a tensor, kept on the module. An
    # attribute that __init__ set is put back after tracing; one made in forward keeps the fake tensor.
    helpers = ("class Encoder(nn.Module):\n    def forward(self, x):\n        return x * 2\n\n\n"
               "class Model(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
               "        self.encoder = Encoder()\n")
    init = "        self.model = Model()\n"
    path = tmp_path / "nested.py"
    path.write_text(module_source("self.features = self.model.encoder(x)\n        return x + 1", helpers, init))
    line = next(i for i, text in enumerate(path.read_text().splitlines(), 1) if "self.features = self.model" in text)
    assert error_lines(tmp_path, "export").get("nested") == {line}
    model = load(path)
    torch.export.export(model, (torch.randn(8),), strict=False)
    assert type(model.features).__name__ == "FakeTensor"


@pytest.mark.parametrize("test,reported", [("type(x) is torch.Tensor", True), ("isinstance(x, torch.Tensor)", False)])
def test_export_keeps_the_branch_a_tensors_exact_type_takes_while_tracing(tmp_path, test, reported):
    # FX504 for export: non-strict export traces with FakeTensors, whose type() is not torch.Tensor.
    path = tmp_path / "typed.py"
    path.write_text(module_source(f"if {test}:\n            return x * 2\n        return x", ""))
    line = next(i for i, text in enumerate(path.read_text().splitlines(), 1) if test in text)
    assert error_lines(tmp_path, "export").get("typed", set()) == ({line} if reported else set())
    model, x = load(path), torch.ones(8)
    exported = torch.export.export(model, (x,), strict=False).module()
    assert torch.equal(exported(x), model(x)) != reported


def test_dynamo_breaks_in_a_tokenizer_where_fxlint_reports_it(tmp_path):
    # FX502 for dynamo: a tokenizer made by a project factory (BLIP's init_tokenizer) and called
    # in forward; Dynamo breaks inside the tokenizer's code.
    vocab = tmp_path / "vocab.txt"
    vocab.write_text("\n".join(["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "a", "cat", "dog"]) + "\n")
    helpers = ("from transformers import BertTokenizerFast\n\n\ndef init_tokenizer(path):\n"
               "    tokenizer = BertTokenizerFast(vocab_file=path)\n    return tokenizer\n")
    init = f"        self.tokenizer = init_tokenizer({str(vocab)!r})\n        self.emb = nn.Embedding(8, 4)\n"
    body = "ids = self.tokenizer([\"a cat\"], return_tensors=\"pt\").input_ids\n        return self.emb(ids).sum() * x"
    path = tmp_path / "tokenized.py"
    path.write_text(module_source("x = x * 2\n        " + body, helpers, init))
    line = next(i for i, text in enumerate(path.read_text().splitlines(), 1) if "self.tokenizer([" in text)
    assert error_lines(tmp_path, "dynamo").get("tokenized") == {line}
    torch._dynamo.reset()
    explained = torch._dynamo.explain(load(path))(torch.randn(8))
    assert any(f.filename == str(path) and f.lineno == line for b in explained.break_reasons for f in b.user_stack)


@pytest.mark.parametrize("update,helpers,init,reported", [
    ("self.mask.mul_(2)", "", "self.mask = torch.ones(3)", True),
    ("self.mask *= 2", "", "self.mask = torch.ones(3)", True),
    ("self.mask.sub_(self.step)", "", "self.mask = torch.ones(3)\n        self.step = 0.5", True),
    ("self.mask.mul_(2)", "", "self.register_buffer(\"mask\", torch.ones(3))", False),
    ("self.mask.mul_(2)", "", "self.mask = nn.Buffer(torch.ones(3))", False),
    ("self.mask.add_(x)", "", "self.mask = torch.ones(3)", False),
    ("self.mask.neg_()", "", "self.mask = torch.ones(3)", False),
    ("self.mask[0] *= 2", "", "self.mask = torch.ones(3)", False),
    # A module-level tensor: FX401, the program keeps it as a constant.
    ("MASK.mul_(2)", "MASK = torch.ones(3)\n", "self.mask = MASK", True),
    ("MASK.add_(x)", "MASK = torch.ones(3)\n", "self.mask = MASK", False),
    # An attribute bound to it holds it: FX403.
    ("self.mask.mul_(2)", "MASK = torch.ones(3)\n", "self.mask = MASK", True),
])
def test_export_updates_a_plain_tensor_once_more_while_tracing(tmp_path, update, helpers, init, reported):
    # FX403 and FX401 for export: non-strict export runs an in-place add_/sub_/mul_/div_ by a Python
    # number on a tensor that is no module state while tracing, so the program starts one update ahead.
    path = tmp_path / "counter.py"
    path.write_text(module_source(f"{update}\n        return x + self.mask", helpers, f"        {init}\n"))
    line = next(i for i, text in enumerate(path.read_text().splitlines(), 1) if update in text)
    assert error_lines(tmp_path, "export").get("counter", set()) == ({line} if reported else set())
    x = torch.zeros(3)
    eager = load(path)
    expected = [eager(x.clone()) for _ in range(3)]
    exported = torch.export.export(load(path), (x.clone(),), strict=False).module()
    got = [exported(x.clone()) for _ in range(3)]
    assert all(torch.equal(a, b) for a, b in zip(expected, got)) != reported


@pytest.mark.parametrize("forward,reported", [
    # `message` stores the weights; forward takes them and clears the attribute.
    ("out = self.message(x)\n        alpha = self._alpha\n        self._alpha = None\n        return out + alpha", False),
    # Cleared before the call: the weights stay on the module after it, where the program has none.
    ("self._alpha = None\n        out = self.message(x)\n        return out + 1", True),
])
def test_export_keeps_a_scratch_attribute_the_call_takes(tmp_path, forward, reported):
    # FX403 for export: a tensor a method stores on `self` outlives the call unless forward takes it.
    path = tmp_path / "scratch.py"
    path.write_text(HEADER + "class M(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
                    "        self._alpha = None\n\n    def message(self, x):\n        alpha = x.softmax(-1)\n"
                    "        self._alpha = alpha\n        return x * alpha\n\n    def forward(self, x):\n        "
                    + forward + "\n")
    assert bool(error_lines(tmp_path, "export").get("scratch")) == reported
    x = torch.randn(4)
    eager = load(path)
    expected = eager(x)
    exported_from = load(path)
    program = torch.export.export(exported_from, (x,), strict=False).module()
    assert torch.equal(program(x), expected)
    # What eager leaves on the module, the program's module does not hold.
    left = getattr(program, "_alpha", None)
    assert (eager._alpha is not None and left is None) == reported


@pytest.mark.parametrize("fill,init,reported", [
    # Keyed by the size it compares: the program computes the table on every call.
    ("if self.size != x.shape[0]:\n            self.table = torch.arange(x.shape[0]) * 1.0\n"
     "            self.size = x.shape[0]", "self.table = torch.zeros(0)\n        self.size = 0", False),
    ("if x.shape[0] not in self.tables:\n            self.tables[x.shape[0]] = torch.arange(x.shape[0]) * 1.0\n"
     "        return x + self.tables[x.shape[0]]", "self.tables = {}", False),
    # A hit that returns early; the miss fills the key and the value the hit returns.
    ("if x.shape[0] <= self.size:\n            return x + self.table[:x.shape[0]]\n"
     "        self.table = torch.arange(x.shape[0]) * 1.0\n        self.size = x.shape[0]\n        return x + self.table",
     "self.table = torch.zeros(0)\n        self.size = 0", False),
    ("if x.shape[0] in self.tables:\n            return x + self.tables[x.shape[0]]\n"
     "        self.tables[x.shape[0]] = torch.arange(x.shape[0]) * 1.0\n        return x + self.tables[x.shape[0]]",
     "self.tables = {}", False),
    # Keyed by nothing: eager reuses the first call's data, the program recomputes it.
    ("if self.table is None:\n            self.table = x * 2", "self.table = None", True),
    ("if self.table is not None:\n            return x + self.table\n        self.table = x * 2\n"
     "        return x + self.table", "self.table = None", True),
    # A running state tested against nothing of the call is no cache.
    ("if self.steps < 2:\n            self.table = self.table + x\n            self.steps = self.steps + 1",
     "self.table = torch.zeros(4)\n        self.steps = 0", True),
])
def test_export_program_computes_a_cache_filled_on_a_miss(tmp_path, fill, init, reported):
    # FX403/FX204 for export: torch.export puts the module's attributes back after tracing.
    path = tmp_path / "cache.py"
    body = fill if "return" in fill else f"{fill}\n        return x + self.table"
    path.write_text(module_source(body, "", f"        {init}\n"))
    assert bool(error_lines(tmp_path, "export").get("cache")) == reported
    inputs = [torch.randn(4) for _ in range(3)]
    model = load(path)
    exported = torch.export.export(model, (inputs[0],), strict=False).module()
    eager = load(path)
    assert all(torch.equal(exported(x), eager(x)) for x in inputs) != reported
