"""nn.Module.__call__'s forward hooks, as plain Python the capture runs.

When a module has forward hooks or forward pre-hooks, the capture runs
`call_with_hooks(module, *args, **kwargs)` instead of `forward` alone, so that
the hooks are traced like the rest of the code, in the order torch's
`Module._call_impl` runs them: global hooks first, then the module's own.
Backward hooks do not change what the forward computes and are not run.
"""
from torch.nn.modules import module as _torch_module


def _hooks(mod, local, local_kwargs, global_, global_kwargs):
    """(hook, takes_kwargs) pairs; the *_kwargs dicts exist in newer torch only."""
    out = []
    for hooks, with_kwargs in ((getattr(_torch_module, global_, {}), getattr(_torch_module, global_kwargs, {})),
                               (getattr(mod, local, {}), getattr(mod, local_kwargs, {}))):
        for key, hook in hooks.items():
            out.append((hook, key in with_kwargs))
    return out


def pre_hooks(mod):
    return _hooks(mod, "_forward_pre_hooks", "_forward_pre_hooks_with_kwargs",
                  "_global_forward_pre_hooks", "_global_forward_pre_hooks_with_kwargs")


def forward_hooks(mod):
    return _hooks(mod, "_forward_hooks", "_forward_hooks_with_kwargs",
                  "_global_forward_hooks", "_global_forward_hooks_with_kwargs")


def call_with_hooks(module, *args, **kwargs):
    for hook, takes_kwargs in pre_hooks(module):
        if takes_kwargs:
            result = hook(module, args, kwargs)
            if result is not None:
                if not (isinstance(result, tuple) and len(result) == 2):
                    raise RuntimeError("forward pre-hook must return None or a tuple of (new_args, new_kwargs), "
                                       f"but got {result}.")
                args, kwargs = result
        else:
            result = hook(module, args)
            if result is not None:
                args = result if isinstance(result, tuple) else (result,)
    result = module.forward(*args, **kwargs)
    for hook, takes_kwargs in forward_hooks(module):
        hook_result = hook(module, args, kwargs, result) if takes_kwargs else hook(module, args, result)
        if hook_result is not None:
            result = hook_result
    return result
