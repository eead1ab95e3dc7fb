"""Worker of the fix-semantics benchmark: runs one group of cases and saves what they compute.

    python bench/fix_semantics/cases.py GROUP OUT.pt

It is run twice per group by run.py: once against the installed packages and once with
PYTHONPATH pointing at the copies that `fxlint fix` rewrote. Every case is seeded the same
way (torch, numpy, random) before the model is built and again before each run, so the two
runs compute the same thing unless the rewritten code computes something else.

Each case returns a dict of results (tensors, nested lists/tuples/dicts of tensors, numbers)
for each phase: "eval" (no_grad forward in eval mode) and "train" (forward in train mode, a
loss, backward; the loss and the parameter gradients are saved). A case that raises records
the exception text for that phase instead.
"""

import os
import random
import sys
import traceback
import warnings

import numpy as np
import torch

torch.set_num_threads(1)
torch.set_num_interop_threads(1)
os.environ.setdefault("CUBLAS_WORKSPACE_CONFIG", ":4096:8")
torch.use_deterministic_algorithms(True, warn_only=True)
warnings.filterwarnings("ignore")

SEED = 1234


def seed(s=SEED):
    random.seed(s)
    np.random.seed(s)
    torch.manual_seed(s)


def grads(model):
    return {n: p.grad.detach().clone() for n, p in model.named_parameters() if p.grad is not None}


def detach(x):
    """Detached copies of every tensor in a nested output (ModelOutput, dicts, tuples)."""
    if isinstance(x, torch.Tensor):
        return x.detach().clone()
    if isinstance(x, dict):  # transformers' ModelOutput is a dict
        return {k: detach(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [detach(v) for v in x]
    if hasattr(x, "to_legacy_cache"):  # a transformers Cache object
        return None
    if isinstance(x, (int, float, bool, str)) or x is None:
        return x
    return repr(type(x))


def total_loss(out):
    """A scalar loss from any output: a loss dict is summed, logits are squared and averaged."""
    if isinstance(out, dict) and all(isinstance(v, torch.Tensor) and v.dim() == 0 for v in out.values()):
        return sum(out.values())
    if isinstance(out, dict) and out.get("loss") is not None:
        return out["loss"]
    if isinstance(out, dict):
        t = next(v for v in out.values() if isinstance(v, torch.Tensor) and v.is_floating_point())
        return t.float().pow(2).mean()
    if isinstance(out, (list, tuple)):
        return sum(total_loss(o) for o in out if isinstance(o, (torch.Tensor, dict, list, tuple)))
    return out.float().pow(2).mean()


def model_case(build, eval_inputs, train_inputs=None, train_kwargs=None):
    """A case that builds a model and runs it in eval mode and in train mode with backward."""

    def run():
        res = {}
        seed()
        try:
            model = build()
        except Exception as e:  # noqa: BLE001
            err = {"error": f"build: {type(e).__name__}: {e}", "traceback": traceback.format_exc(limit=-4)}
            return {"eval": err, "train": err}
        for phase in ("eval", "train"):
            try:
                seed(SEED + 1)
                if phase == "eval":
                    model.eval()
                    args, kwargs = eval_inputs()
                    with torch.no_grad():
                        res["eval"] = {"out": detach(model(*args, **kwargs))}
                else:
                    model.train()
                    model.zero_grad(set_to_none=True)
                    args, kwargs = (train_inputs or eval_inputs)()
                    seed(SEED + 2)
                    out = model(*args, **kwargs)
                    loss = total_loss(out)
                    loss.backward()
                    res["train"] = {"loss": loss.detach().clone(), "out": detach(out), "grads": grads(model)}
            except Exception as e:  # noqa: BLE001
                res[phase] = {"error": f"{type(e).__name__}: {e}", "traceback": traceback.format_exc(limit=-4)}
        return res

    return run


def func_case(fn):
    """A case that calls library functions directly; fn returns a dict of results."""

    def run():
        try:
            seed()
            return {"eval": fn()}
        except Exception as e:  # noqa: BLE001
            return {"eval": {"error": f"{type(e).__name__}: {e}", "traceback": traceback.format_exc(limit=-4)}}

    return run


# --------------------------------------------------------------------------- torchvision

def torchvision_cases():
    import torchvision
    from torchvision.models import detection, optical_flow, segmentation

    def img(b=1, s=64):
        return lambda: ((torch.randn(b, 3, s, s),), {})

    def det_inputs(train):
        def make():
            imgs = [torch.rand(3, 160, 160), torch.rand(3, 160, 160)]
            if not train:
                return (imgs,), {}
            targets = [
                {"boxes": torch.tensor([[10.0, 20.0, 90.0, 110.0], [50.0, 40.0, 150.0, 150.0]]),
                 "labels": torch.tensor([1, 2])},
                {"boxes": torch.tensor([[5.0, 5.0, 60.0, 70.0]]), "labels": torch.tensor([3])},
            ]
            return (imgs, targets), {}
        return make

    tvm = torchvision.models
    cases = {
        "resnet18": model_case(lambda: tvm.resnet18(weights=None, num_classes=10), img(2, 64)),
        "mobilenet_v3_small": model_case(lambda: tvm.mobilenet_v3_small(weights=None, num_classes=10), img(2, 64)),
        "vit_b_16 (image_size=32)": model_case(
            lambda: tvm.vit_b_16(weights=None, image_size=32, num_classes=10), img(2, 32)),
        "googlenet (aux_logits)": model_case(
            lambda: tvm.googlenet(weights=None, aux_logits=True, init_weights=True, num_classes=10), img(2, 64)),
        "fasterrcnn_mobilenet_v3_large_320_fpn": model_case(
            lambda: detection.fasterrcnn_mobilenet_v3_large_320_fpn(weights=None, weights_backbone=None, num_classes=5),
            det_inputs(False), det_inputs(True)),
        "ssdlite320_mobilenet_v3_large": model_case(
            lambda: detection.ssdlite320_mobilenet_v3_large(weights=None, weights_backbone=None, num_classes=5),
            det_inputs(False), det_inputs(True)),
        "fcos_resnet50_fpn": model_case(
            lambda: detection.fcos_resnet50_fpn(weights=None, weights_backbone=None, num_classes=5,
                                                min_size=128, max_size=128),
            det_inputs(False), det_inputs(True)),
        "deeplabv3_mobilenet_v3_large": model_case(
            lambda: segmentation.deeplabv3_mobilenet_v3_large(weights=None, weights_backbone=None, num_classes=3,
                                                              aux_loss=True), img(2, 64)),
        "raft_small (2 flow updates)": model_case(
            lambda: optical_flow.raft_small(weights=None),
            lambda: ((torch.rand(1, 3, 128, 128), torch.rand(1, 3, 128, 128)), {"num_flow_updates": 2})),
    }

    # Functions the rewrites touched, called directly.
    def f_rotate_fill_nearest():
        import torchvision.transforms.functional as F
        from torchvision.transforms import InterpolationMode
        x = torch.rand(2, 3, 16, 16)
        return {
            "rotate": F.rotate(x, 30.0, interpolation=InterpolationMode.NEAREST, fill=[0.2, 0.5, 0.9]),
            "affine": F.affine(x, angle=10.0, translate=[3, 2], scale=0.8, shear=[5.0, 0.0],
                               interpolation=InterpolationMode.NEAREST, fill=1.0),
        }

    def f_autocontrast():
        import torchvision.transforms.functional as F
        import torchvision.transforms.v2.functional as F2
        x = torch.rand(2, 3, 8, 8)
        x[0, 1] = 0.5  # a constant channel: the eq_idxs branch
        u = (torch.rand(2, 3, 8, 8) * 255).to(torch.uint8)
        u[1, 2] = 7
        return {"v1_float": F.autocontrast(x), "v1_uint8": F.autocontrast(u),
                "v2_float": F2.autocontrast(x.clone()), "v2_uint8": F2.autocontrast(u.clone())}

    def f_flow_to_image():
        from torchvision.utils import flow_to_image
        flow = torch.randn(2, 2, 12, 12) * 3
        flow[:, :, 0, 0] = 0
        flow[0, 0, 1, 1] = -5.0  # angle pi: the k1 == num_cols wrap
        flow[0, 1, 1, 1] = 0.0
        return {"img": flow_to_image(flow)}

    cases["fn: transforms.functional rotate/affine, nearest + fill"] = func_case(f_rotate_fill_nearest)
    cases["fn: autocontrast (v1, v2)"] = func_case(f_autocontrast)
    cases["fn: utils.flow_to_image"] = func_case(f_flow_to_image)
    return torchvision, cases


# --------------------------------------------------------------------------- timm

def timm_cases():
    import timm

    def mk(name, s=64, **kw):
        kw = {"drop_rate": 0.1, "drop_path_rate": 0.1, **kw}
        kw = {k: v for k, v in kw.items() if v is not None}
        return model_case(lambda: timm.create_model(name, pretrained=False, num_classes=10, **kw),
                          lambda: ((torch.randn(2, 3, s, s),), {}))

    cases = {
        "resnet10t": mk("resnet10t"),
        "lcnet_050": mk("lcnet_050"),
        "mobilenetv3_small_050": mk("mobilenetv3_small_050"),
        "efficientnet_b0": mk("efficientnet_b0"),
        "convnext_atto": mk("convnext_atto"),
        "regnetx_002": mk("regnetx_002"),
        "vit_tiny_patch16_224 (img_size=64)": mk("vit_tiny_patch16_224", img_size=64),
        "deit_tiny_patch16_224 (img_size=64)": mk("deit_tiny_patch16_224", img_size=64),
        "levit_128s": model_case(lambda: timm.create_model("levit_128s", pretrained=False, num_classes=10,
                                                           drop_path_rate=0.1),
                                 lambda: ((torch.randn(2, 3, 224, 224),), {})),
        "ghostnet_050": mk("ghostnet_050", drop_path_rate=None),
    }
    return timm, cases


# --------------------------------------------------------------------------- transformers

def transformers_cases():
    import transformers as T

    def ids(b=2, n=12, vocab=99):
        return torch.randint(3, vocab, (b, n))

    def lm_inputs(vocab=99):
        def make():
            x = ids(vocab=vocab)
            mask = torch.ones_like(x)
            mask[1, -3:] = 0
            return (), {"input_ids": x, "attention_mask": mask, "labels": x.clone()}
        return make

    def whisper(**kw):
        base = dict(vocab_size=99, num_mel_bins=16, d_model=32, encoder_layers=2, decoder_layers=2,
                    encoder_attention_heads=4, decoder_attention_heads=4, encoder_ffn_dim=37, decoder_ffn_dim=37,
                    max_source_positions=20, max_target_positions=32, decoder_start_token_id=1, pad_token_id=0,
                    bos_token_id=1, eos_token_id=2, suppress_tokens=None, begin_suppress_tokens=None)
        base.update(kw)
        return T.WhisperForConditionalGeneration(T.WhisperConfig(**base))

    small = dict(hidden_size=32, num_hidden_layers=2, num_attention_heads=4, intermediate_size=37)
    cases = {
        "BertForMaskedLM": model_case(
            lambda: T.BertForMaskedLM(T.BertConfig(vocab_size=99, max_position_embeddings=64, **small)), lm_inputs()),
        "GPT2LMHeadModel": model_case(
            lambda: T.GPT2LMHeadModel(T.GPT2Config(vocab_size=99, n_positions=64, n_embd=32, n_layer=2, n_head=4,
                                                   bos_token_id=1, eos_token_id=2)),
            lm_inputs()),
        "T5ForConditionalGeneration": model_case(
            lambda: T.T5ForConditionalGeneration(T.T5Config(vocab_size=99, d_model=32, d_kv=8, d_ff=37, num_layers=2,
                                                            num_decoder_layers=2, num_heads=4,
                                                            decoder_start_token_id=0)),
            lm_inputs()),
        "LlamaForCausalLM": model_case(
            lambda: T.LlamaForCausalLM(T.LlamaConfig(vocab_size=99, num_key_value_heads=2,
                                                     max_position_embeddings=64, **small)), lm_inputs()),
        "ViTForImageClassification": model_case(
            lambda: T.ViTForImageClassification(T.ViTConfig(image_size=32, patch_size=8, num_labels=5, **small)),
            lambda: ((), {"pixel_values": torch.randn(2, 3, 32, 32), "labels": torch.tensor([1, 4])})),
        "WhisperForConditionalGeneration": model_case(
            lambda: T.WhisperForConditionalGeneration(T.WhisperConfig(
                vocab_size=99, num_mel_bins=16, d_model=32, encoder_layers=2, decoder_layers=2,
                encoder_attention_heads=4, decoder_attention_heads=4, encoder_ffn_dim=37, decoder_ffn_dim=37,
                max_source_positions=20, max_target_positions=32, decoder_start_token_id=1, pad_token_id=0,
                bos_token_id=1, eos_token_id=2, suppress_tokens=None, begin_suppress_tokens=None)),
            lambda: ((), {"input_features": torch.randn(2, 16, 40), "labels": ids(2, 6)})),
        # apply_spec_augment with mask_*_prob > 0: train mode runs the SpecAugment masking the FX302 rewrite
        # touched (WhisperEncoder._mask_input_features).
        "WhisperForConditionalGeneration (SpecAugment, batch 2)": model_case(
            lambda: whisper(apply_spec_augment=True, mask_time_prob=0.3, mask_time_length=2, mask_feature_prob=0.3,
                            mask_feature_length=2),
            lambda: ((), {"input_features": torch.randn(2, 16, 40), "labels": ids(2, 6)})),
        # 16 mel bins and 16 frames (max_source_positions=8), one example.
        "WhisperForConditionalGeneration (SpecAugment, batch 1, 16x16 features)": model_case(
            lambda: whisper(apply_spec_augment=True, mask_time_prob=0.0, mask_feature_prob=0.3,
                            mask_feature_length=2, max_source_positions=8),
            lambda: ((), {"input_features": torch.randn(1, 16, 16), "labels": ids(1, 6)})),
        # mask_feature_prob > 0: train mode runs the SpecAugment feature masking the FX302 rewrite touched.
        "Wav2Vec2ForCTC (SpecAugment)": model_case(
            lambda: T.Wav2Vec2ForCTC(T.Wav2Vec2Config(
                vocab_size=20, hidden_size=32, num_hidden_layers=2, num_attention_heads=4, intermediate_size=37,
                conv_dim=(16, 16), conv_stride=(5, 4), conv_kernel=(10, 8), num_conv_pos_embeddings=16,
                num_conv_pos_embedding_groups=2, mask_time_prob=0.2, mask_time_length=2, mask_feature_prob=0.3,
                mask_feature_length=4, pad_token_id=0, ctc_loss_reduction="mean")),
            lambda: ((), {"input_values": torch.randn(2, 1600), "labels": torch.randint(1, 20, (2, 5))})),
        "HubertForCTC (SpecAugment)": model_case(
            lambda: T.HubertForCTC(T.HubertConfig(
                vocab_size=20, hidden_size=32, num_hidden_layers=2, num_attention_heads=4, intermediate_size=37,
                conv_dim=(16, 16), conv_stride=(5, 4), conv_kernel=(10, 8), num_conv_pos_embeddings=16,
                num_conv_pos_embedding_groups=2, mask_time_prob=0.2, mask_time_length=2, mask_feature_prob=0.3,
                mask_feature_length=4, pad_token_id=0, ctc_loss_reduction="mean")),
            lambda: ((), {"input_values": torch.randn(2, 1600), "labels": torch.randint(1, 20, (2, 5))})),
    }

    # Functions the rewrites touched, called directly.
    def f_transition_scores():
        cfg = T.GPT2Config(vocab_size=99, n_positions=64, n_embd=32, n_layer=2, n_head=4, eos_token_id=2,
                           pad_token_id=0, bos_token_id=1)
        model = T.GPT2LMHeadModel(cfg).eval()
        with torch.no_grad():
            out = model.generate(ids(2, 5), attention_mask=torch.ones(2, 5, dtype=torch.long), num_beams=3,
                                 max_new_tokens=6, do_sample=False, output_scores=True, return_dict_in_generate=True,
                                 num_return_sequences=2, early_stopping=False)
            ts = model.compute_transition_scores(out.sequences, out.scores, out.beam_indices, normalize_logits=False)
        return {"sequences": out.sequences, "beam_indices": out.beam_indices, "transition_scores": ts}

    def f_vits_spline():
        from transformers.models.vits import modeling_vits as m
        b, c, n, bins = 2, 3, 7, 5
        x = torch.randn(b, c, n) * 4  # some outside tail_bound=5
        x[0, 0, :3] = torch.tensor([-9.0, 6.0, 12.0])
        x.requires_grad_(True)
        w, h, d = (torch.randn(b, c, n, bins, requires_grad=True) for _ in range(3))
        out, logdet = m._unconstrained_rational_quadratic_spline(x, w, h, d.narrow(-1, 0, bins - 1), tail_bound=5.0)
        (out.square().sum() + logdet.sum()).backward()
        return {"out": out.detach(), "logdet": logdet.detach(), "grad_x": x.grad, "grad_w": w.grad}

    def f_timesfm_shift():
        from transformers.models.timesfm.modeling_timesfm import TimesFmModel
        mask = torch.tensor([[1, 1, 0, 0, 0], [0, 0, 0, 0, 0], [1, 1, 1, 1, 1]], dtype=torch.float32)
        seq = torch.randn(3, 5, 4)
        return {"shifted": TimesFmModel._timesfm_shift_padded_seq(mask, seq)}

    def f_d_fine_translate_gt():
        from transformers.loss.loss_d_fine import translate_gt, weighting_function
        up = torch.tensor([0.5])
        gt = torch.tensor([-100.0, -0.3, 0.0, 0.05, 0.4, 3.0, 100.0])
        return dict(zip(("indices", "weight_right", "weight_left"), translate_gt(gt, 32, 4, up)),
                    weights=weighting_function(32, up, 4))

    def f_phi4_adaptive_enc_mask():
        from transformers.models.phi4_multimodal.modeling_phi4_multimodal import adaptive_enc_mask
        return {"mask": adaptive_enc_mask(20, [0, 6, 12, 18], left_window=1, right_window=0)}

    def f_esmfold_relpos_and_bert_mask():
        from types import SimpleNamespace
        from transformers.models.esm.modeling_esmfold import EsmFoldRelativePosition, EsmForProteinFolding
        cfg = SimpleNamespace(position_bins=4, pairwise_state_dim=8)
        relpos = EsmFoldRelativePosition(cfg)
        ri = torch.arange(9).repeat(2, 1)
        m = torch.ones(2, 9, dtype=torch.long)
        m[1, 6:] = 0
        aa = torch.randint(0, 20, (2, 9))
        pattern = torch.randint(0, 2, (2, 9))
        stub = SimpleNamespace(mask_idx=21, esm_dict_mask_idx=32)
        new_aa, new_esmaa, target = EsmForProteinFolding.bert_mask(stub, aa, aa.clone() + 4, m, pattern)
        return {"relpos": relpos(ri, m).detach(), "new_aa": new_aa, "new_esmaa": new_esmaa, "target": target}

    def pop2piano(batch):
        def f():
            cfg = T.Pop2PianoConfig(vocab_size=50, composer_vocab_size=5, d_model=16, d_kv=4, d_ff=32, num_layers=1,
                                    num_decoder_layers=1, num_heads=4)
            model = T.Pop2PianoForConditionalGeneration(cfg).eval()
            gen = SimpleGen({"composer1": 10, "composer2": 11, "composer3": 12, "composer4": 13, "composer5": 14})
            feats = torch.randn(batch, 6, 16)
            mask = torch.ones(batch, 6, dtype=torch.long)
            mask[-1, :] = 0  # the last example is padding
            with torch.no_grad():
                out = model.get_mel_conditioner_outputs(feats, composer="composer2", generation_config=gen,
                                                        attention_mask=mask)
            return {"out": detach(out)}
        return f

    class SimpleGen:
        def __init__(self, table):
            self.composer_to_feature_token = table

    cases["fn: GenerationMixin.compute_transition_scores (beam search)"] = func_case(f_transition_scores)
    cases["fn: vits _unconstrained_rational_quadratic_spline (+grad)"] = func_case(f_vits_spline)
    cases["fn: TimesFmModel._timesfm_shift_padded_seq"] = func_case(f_timesfm_shift)
    cases["fn: loss_d_fine.translate_gt"] = func_case(f_d_fine_translate_gt)
    cases["fn: phi4_multimodal adaptive_enc_mask"] = func_case(f_phi4_adaptive_enc_mask)
    cases["fn: esmfold relative position + bert_mask"] = func_case(f_esmfold_relpos_and_bert_mask)
    cases["fn: Pop2Piano get_mel_conditioner_outputs (batch 1)"] = func_case(pop2piano(1))
    cases["fn: Pop2Piano get_mel_conditioner_outputs (batch 2)"] = func_case(pop2piano(2))
    cases["fn: Pop2Piano get_mel_conditioner_outputs (batch 16 = d_model)"] = func_case(pop2piano(16))

    def f_higgs_statement(batch):
        # The generation loop needs a full audio model; run the module's own statement instead, taken from
        # the loaded source, with its operands shaped as the lines before it make them.
        def f():
            import inspect
            from transformers.models.higgs_audio_v2 import generation_higgs_audio_v2 as m
            line = next(l.strip() for l in inspect.getsource(m).splitlines()
                        if "has_all_audio_stream_eos" in l and l.strip().startswith("next_audio_input_ids_mask"))
            eos = 7
            next_tokens = torch.randint(0, 5, (batch, 4))
            next_tokens[0] = eos  # example 0 ended every stream
            ns = {"torch": torch,
                  "has_all_audio_stream_eos": (next_tokens == eos).all(dim=-1),
                  "next_audio_input_ids_mask": torch.ones((batch, 1), dtype=torch.bool)}
            exec(line, ns)
            return {"mask": ns["next_audio_input_ids_mask"]}
        return f

    cases["stmt: higgs_audio_v2 generate, audio-eos mask (batch 1)"] = func_case(f_higgs_statement(1))
    cases["stmt: higgs_audio_v2 generate, audio-eos mask (batch 3)"] = func_case(f_higgs_statement(3))
    return T, cases


GROUPS = {"torchvision": torchvision_cases, "timm": timm_cases, "transformers": transformers_cases}


class LineTracer:
    """Records which lines of the given files run (the rewritten files, in the fixed run)."""

    def __init__(self, files):
        self.files = set(files)
        self.hits = set()

    def _local(self, frame, event, arg):
        if event == "line":
            self.hits.add((frame.f_code.co_filename, frame.f_lineno))
        return self._local

    def _global(self, frame, event, arg):
        if frame.f_code.co_filename in self.files:
            self.hits.add((frame.f_code.co_filename, frame.f_lineno))
            return self._local
        return None

    def start(self):
        self.hits = set()
        sys.settrace(self._global)

    def stop(self):
        sys.settrace(None)
        return sorted(self.hits)


def main():
    group, out_path = sys.argv[1], sys.argv[2]
    tracer = None
    if os.environ.get("FXB_TRACE_FILES"):
        import json
        with open(os.environ["FXB_TRACE_FILES"]) as f:
            tracer = LineTracer(json.load(f))
    only = set(sys.argv[3].split("|")) if len(sys.argv) > 3 and sys.argv[3] else None
    if tracer:
        tracer.start()
    pkg, cases = GROUPS[group]()
    results = {"__package_file__": os.path.realpath(pkg.__file__), "cases": {}, "lines": {}}
    if tracer:
        results["lines"]["(import)"] = tracer.stop()
    for name, run in cases.items():
        if only and name not in only:
            continue
        if tracer:
            tracer.start()
        results["cases"][name] = run()
        if tracer:
            results["lines"][name] = tracer.stop()
        print(f"  [{group}] {name}: " + ", ".join(
            f"{ph}={'error' if 'error' in r else 'ok'}" for ph, r in results["cases"][name].items()), flush=True)
    torch.save(results, out_path)


if __name__ == "__main__":
    main()
