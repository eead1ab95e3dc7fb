"""The zoo's model list: every torchvision builder, timm models across its families and
transformers architectures from small configs, each with small example inputs.

A spec builds ``(model, args, kwargs)`` for one input size. ``sizes`` is a ladder: the
harness tries each size in turn (building the model again when the size is a constructor
argument) and keeps the first one whose eager forward runs, so a model that needs a larger
input than 64x64 still runs at the smallest size it accepts. Nothing is downloaded: every
model has random weights (``weights=None``, ``weights_backbone=None``, ``pretrained=False``,
transformers models from config classes).
"""

import dataclasses
from typing import Callable


@dataclasses.dataclass
class Spec:
    name: str  # "tv/resnet18", "timm/vit_tiny_patch16_224", "hf/bert"
    family: str  # "torchvision.classification", "timm", "transformers.decoder", ...
    build: Callable  # build(size) -> (model, args, kwargs)
    sizes: tuple = (None,)  # input-size ladder; None when the inputs are fixed
    note: str = ""


def _image(size, batch=1):
    import torch

    return torch.randn(batch, 3, size, size)


# --------------------------------------------------------------------------- torchvision

# Builders that take the input size as a constructor argument.
_TV_SIZE_KW = {"vit_b_16": "image_size", "vit_b_32": "image_size", "vit_l_16": "image_size",
               "vit_l_32": "image_size", "vit_h_14": "image_size"}
_TV_SIZES = {
    "inception_v3": (96, 299),  # needs at least 75x75
    "googlenet": (64, 96, 224),
    "maxvit_t": (224,),  # partition size 7 over 5 stages: 224 only
    "vit_b_16": (64,), "vit_b_32": (64,), "vit_l_16": (64,), "vit_l_32": (64,), "vit_h_14": (56,),
}


def _tv_classification(name):
    def build(size):
        import torchvision.models as M

        kwargs = {"weights": None}
        if name in _TV_SIZE_KW:
            kwargs[_TV_SIZE_KW[name]] = size
        if name in ("inception_v3", "googlenet"):
            kwargs["aux_logits"] = False
            kwargs["init_weights"] = True
        model = M.get_model(name, **kwargs)
        return model, (_image(size),), {}

    return Spec(f"tv/{name}", "torchvision.classification", build, _TV_SIZES.get(name, (64, 96, 128, 224)))


def _tv_segmentation(name):
    def build(size):
        import torchvision.models as M

        kwargs = {"weights": None, "weights_backbone": None}
        model = M.get_model(name, **kwargs)
        return model, (_image(size),), {}

    return Spec(f"tv/{name}", "torchvision.segmentation", build, (64, 128))


def _tv_detection(name):
    def build(size):
        import torch
        import torchvision.models as M

        kwargs = {"weights": None, "weights_backbone": None}
        if "rcnn" in name or "retinanet" in name or "fcos" in name:
            # The transform resizes every image to min_size (800 by default): keep it small.
            kwargs.update(min_size=size, max_size=size)
        if "retinanet" in name or "fcos" in name:
            # With random weights every box scores near the classifier's prior (0.01), below the
            # default threshold, and the postprocessing never reaches box decoding and NMS: keep
            # every box, so the example runs the path a trained detector runs.
            kwargs.update(score_thresh=0.0)
        model = M.get_model(name, **kwargs)
        return model, ([torch.rand(3, size, size)],), {}

    sizes = {"ssd300_vgg16": (300,), "ssdlite320_mobilenet_v3_large": (320,)}.get(name, (128, 224))
    return Spec(f"tv/{name}", "torchvision.detection", build, sizes)


def _tv_video(name):
    def build(size):
        import torch
        import torchvision.models as M

        model = M.get_model(name, weights=None)
        frames = 16 if name.startswith(("mvit", "s3d")) else 8
        return model, (torch.randn(1, 3, frames, size, size),), {}

    # mvit_v1_b and mvit_v2_s fix their positional embeddings to 16x224x224; s3d ends in a
    # 2x7x7 average pool over a 16x224x224 clip's features.
    sizes = (224,) if name.startswith(("mvit", "s3d")) else (64, 112)
    return Spec(f"tv/{name}", "torchvision.video", build, sizes)


def _tv_optical_flow(name):
    def build(size):
        import torchvision.models as M

        model = M.get_model(name, weights=None)
        return model, (_image(size), _image(size)), {"num_flow_updates": 4}

    return Spec(f"tv/{name}", "torchvision.optical_flow", build, (64, 128))


def torchvision_specs():
    import torchvision.models as M

    specs = []
    for sub, make in (("", _tv_classification), ("segmentation", _tv_segmentation),
                      ("detection", _tv_detection), ("video", _tv_video), ("optical_flow", _tv_optical_flow)):
        module = getattr(M, sub) if sub else M
        specs += [make(n) for n in M.list_models(module=module)]
    return specs


# --------------------------------------------------------------------------- timm

# Grouped by family; the run order takes one from each group in turn, so that a run cut
# short still covers every family.
TIMM_GROUPS = {
    "resnets": "resnet18 resnet50d resnext26ts seresnext26d_32x4d res2net50_26w_4s resnest14d skresnet18 tresnet_m "
               "nf_resnet26 dm_nfnet_f0",
    "classic convnets": "densenet121 dla34 dpn68 vgg11 repvgg_a0 inception_v3 xception41 hrnet_w18_small "
                        "cspresnet50 cspdarknet53 selecsls42b ese_vovnet19b_dw gernet_s",
    "regnets": "regnetx_002 regnety_002 regnetz_b16",
    "efficientnets": "efficientnet_b0 efficientnet_lite0 efficientnetv2_rw_t tf_efficientnet_b0 mixnet_s tinynet_e",
    "mobile convnets": "mobilenetv2_050 mobilenetv3_small_100 mobilenetv4_conv_small mnasnet_small fbnetc_100 "
                       "ghostnet_100 ghostnetv2_100 lcnet_050 rexnet_100 hardcorenas_a repvit_m1 hgnet_tiny hgnetv2_b0",
    "modern convnets": "convnext_atto convnextv2_atto convmixer_768_32 poolformer_s12 inception_next_tiny "
                       "rdnet_tiny mambaout_femto starnet_s050",
    "vits": "vit_tiny_patch16_224 deit_tiny_patch16_224 deit3_small_patch16_224 cait_xxs24_224 "
            "xcit_nano_12_p16_224 beit_base_patch16_224 eva02_tiny_patch14_224 flexivit_small volo_d1_224 "
            "vitamin_small_224",
    "hierarchical vits": "levit_128s coat_lite_tiny twins_pcpvt_small pvt_v2_b0 crossvit_tiny_240 pit_ti_224 "
                         "hiera_tiny_224 nest_tiny mvitv2_tiny nextvit_small",
    "windowed attention": "swin_tiny_patch4_window7_224 swinv2_cr_tiny_224 maxvit_tiny_rw_224 coatnet_0_rw_224 "
                          "davit_tiny focalnet_tiny_srf gcvit_xxtiny tiny_vit_5m_224",
    "mlps": "mixer_s16_224 resmlp_12_224 gmlp_ti16_224 sequencer2d_s",
    "mobile hybrids": "mobilevit_xxs mobilevitv2_050 edgenext_xx_small efficientformer_l1 efficientformerv2_s0 "
                      "fastvit_t8 efficientvit_b0 efficientvit_m0",
}


def _round_robin(groups):
    lists = [g.split() for g in groups.values()]
    out = []
    for i in range(max(len(x) for x in lists)):
        out += [x[i] for x in lists if i < len(x)]
    return out


TIMM_MODELS = _round_robin(TIMM_GROUPS)


def _timm(name):
    def build(size):
        import timm
        import torch

        if size == "default":  # the model's own configuration and input size
            model = timm.create_model(name, pretrained=False)
            return model, (torch.randn(1, *model.pretrained_cfg["input_size"]),), {}
        try:
            model = timm.create_model(name, pretrained=False, img_size=size)
        except TypeError:  # convnets: any size, no img_size argument
            model = timm.create_model(name, pretrained=False)
        return model, (_image(size),), {}

    return Spec(f"timm/{name}", "timm." + _timm_group(name).replace(" ", "_"), build,
                (64, 96, 128, 224, 256, "default"))


def _timm_group(name):
    return next(g for g, names in TIMM_GROUPS.items() if name in names.split())


def timm_specs():
    return [_timm(n) for n in TIMM_MODELS]


# --------------------------------------------------------------------------- transformers

V = 99  # vocabulary
S = 8  # tokens
_BERTLIKE = dict(vocab_size=V, hidden_size=32, num_hidden_layers=2, num_attention_heads=2, intermediate_size=64,
                 max_position_embeddings=64)
_DECODER = dict(vocab_size=V, hidden_size=32, intermediate_size=64, num_hidden_layers=2, num_attention_heads=4,
                num_key_value_heads=2, max_position_embeddings=64, use_cache=False)
_SEQ2SEQ = dict(vocab_size=V, d_model=32, encoder_layers=2, decoder_layers=2, encoder_attention_heads=2,
                decoder_attention_heads=2, encoder_ffn_dim=64, decoder_ffn_dim=64, max_position_embeddings=64,
                use_cache=False)
_VIT = dict(image_size=32, patch_size=8, num_channels=3, hidden_size=32, num_hidden_layers=2, num_attention_heads=2,
            intermediate_size=64)


def _ids(n=S, batch=1):
    import torch

    g = torch.Generator().manual_seed(1)
    return torch.randint(3, V, (batch, n), generator=g)


def _text(**extra):
    def inputs():
        import torch

        kw = {"input_ids": _ids()}
        if extra.get("mask"):
            kw["attention_mask"] = torch.ones(1, S, dtype=torch.long)
        if extra.get("decoder"):
            kw["decoder_input_ids"] = _ids(4)
        if extra.get("bbox"):
            kw["bbox"] = torch.tensor([[[1, 2, 3, 4]] * S])
        return kw

    return inputs


def _pixels(size=32):
    return lambda: {"pixel_values": _image(size)}


def _clip():
    return {"input_ids": _ids(), "pixel_values": _image(32)}


def _whisper():
    import torch

    return {"input_features": torch.randn(1, 16, 32), "decoder_input_ids": _ids(4)}


def _speech2text():
    import torch

    return {"input_features": torch.randn(1, 32, 16), "decoder_input_ids": _ids(4)}


def _audio():
    import torch

    return {"input_values": torch.randn(1, 800)}


def _hf(short, config, model, cfg, inputs, family):
    def build(size):
        import transformers as T

        c = cfg() if callable(cfg) else dict(cfg)
        config_obj = getattr(T, config)(**c)
        m = getattr(T, model)(config_obj)
        return m, (), inputs()

    return Spec(f"hf/{short}", f"transformers.{family}", build)


def _sub(config, **kw):
    """A nested config (CLIP's text and vision parts) as an object."""

    def make():
        import transformers as T

        return getattr(T, config)(**kw)

    return make


def transformers_specs():
    enc = "encoder"
    dec = "decoder"
    s2s = "seq2seq"
    vis = "vision"
    mm = "multimodal"
    aud = "audio"
    ENC_TEXT = _text(mask=True)
    DEC_TEXT = _text()
    S2S_TEXT = _text(decoder=True)
    return [
        # encoders
        _hf("bert", "BertConfig", "BertModel", _BERTLIKE, ENC_TEXT, enc),
        _hf("roberta", "RobertaConfig", "RobertaModel", _BERTLIKE, ENC_TEXT, enc),
        _hf("xlm_roberta", "XLMRobertaConfig", "XLMRobertaModel", _BERTLIKE, ENC_TEXT, enc),
        _hf("electra", "ElectraConfig", "ElectraModel", dict(_BERTLIKE, embedding_size=16), ENC_TEXT, enc),
        _hf("albert", "AlbertConfig", "AlbertModel", dict(_BERTLIKE, embedding_size=16), ENC_TEXT, enc),
        _hf("distilbert", "DistilBertConfig", "DistilBertModel",
            dict(vocab_size=V, dim=32, n_layers=2, n_heads=2, hidden_dim=64, max_position_embeddings=64), ENC_TEXT, enc),
        _hf("deberta_v2", "DebertaV2Config", "DebertaV2Model", _BERTLIKE, ENC_TEXT, enc),
        _hf("convbert", "ConvBertConfig", "ConvBertModel", dict(_BERTLIKE, embedding_size=32), ENC_TEXT, enc),
        _hf("mobilebert", "MobileBertConfig", "MobileBertModel",
            dict(_BERTLIKE, embedding_size=16, intra_bottleneck_size=32, true_hidden_size=32), ENC_TEXT, enc),
        _hf("funnel", "FunnelConfig", "FunnelModel",
            dict(vocab_size=V, block_sizes=[1, 1], d_model=32, n_head=2, d_head=16, d_inner=64), ENC_TEXT, enc),
        _hf("squeezebert", "SqueezeBertConfig", "SqueezeBertModel", dict(_BERTLIKE, embedding_size=32), ENC_TEXT, enc),
        _hf("layoutlm", "LayoutLMConfig", "LayoutLMModel", _BERTLIKE, _text(mask=True, bbox=True), enc),
        _hf("longformer", "LongformerConfig", "LongformerModel", dict(_BERTLIKE, attention_window=4), ENC_TEXT, enc),
        _hf("xlnet", "XLNetConfig", "XLNetModel", dict(vocab_size=V, d_model=32, n_layer=2, n_head=2, d_inner=64,
                                                    use_mems_eval=False), ENC_TEXT, enc),
        # decoders
        _hf("gpt2", "GPT2Config", "GPT2Model", dict(vocab_size=V, n_embd=32, n_layer=2, n_head=2, n_positions=64,
                                                 use_cache=False), DEC_TEXT, dec),
        _hf("llama", "LlamaConfig", "LlamaModel", _DECODER, DEC_TEXT, dec),
        _hf("mistral", "MistralConfig", "MistralModel", _DECODER, DEC_TEXT, dec),
        _hf("mixtral", "MixtralConfig", "MixtralModel", dict(_DECODER, num_local_experts=4, num_experts_per_tok=2),
            DEC_TEXT, dec),
        _hf("qwen2", "Qwen2Config", "Qwen2Model", _DECODER, DEC_TEXT, dec),
        _hf("qwen3", "Qwen3Config", "Qwen3Model", dict(_DECODER, head_dim=8), DEC_TEXT, dec),
        _hf("qwen2_moe", "Qwen2MoeConfig", "Qwen2MoeModel",
            dict(_DECODER, num_experts=4, num_experts_per_tok=2, moe_intermediate_size=32,
                 shared_expert_intermediate_size=32), DEC_TEXT, dec),
        _hf("gemma", "GemmaConfig", "GemmaModel", dict(_DECODER, head_dim=8), DEC_TEXT, dec),
        _hf("gemma2", "Gemma2Config", "Gemma2Model", dict(_DECODER, head_dim=8, sliding_window=4), DEC_TEXT, dec),
        _hf("phi", "PhiConfig", "PhiModel", _DECODER, DEC_TEXT, dec),
        _hf("phi3", "Phi3Config", "Phi3Model", dict(_DECODER, pad_token_id=0), DEC_TEXT, dec),
        _hf("stablelm", "StableLmConfig", "StableLmModel", _DECODER, DEC_TEXT, dec),
        _hf("olmo", "OlmoConfig", "OlmoModel", _DECODER, DEC_TEXT, dec),
        _hf("granite", "GraniteConfig", "GraniteModel", _DECODER, DEC_TEXT, dec),
        _hf("cohere", "CohereConfig", "CohereModel", _DECODER, DEC_TEXT, dec),
        _hf("starcoder2", "Starcoder2Config", "Starcoder2Model", _DECODER, DEC_TEXT, dec),
        _hf("opt", "OPTConfig", "OPTModel", dict(vocab_size=V, hidden_size=32, num_hidden_layers=2, ffn_dim=64,
                                               num_attention_heads=2, max_position_embeddings=64,
                                               word_embed_proj_dim=32, use_cache=False), DEC_TEXT, dec),
        _hf("gpt_neo", "GPTNeoConfig", "GPTNeoModel",
            dict(vocab_size=V, hidden_size=32, num_layers=2, num_heads=2, attention_types=[[["global", "local"], 1]],
                 max_position_embeddings=64, window_size=4, use_cache=False), DEC_TEXT, dec),
        _hf("gptj", "GPTJConfig", "GPTJModel", dict(vocab_size=V, n_embd=32, n_layer=2, n_head=2, rotary_dim=8,
                                                 n_positions=64, use_cache=False), DEC_TEXT, dec),
        _hf("gpt_neox", "GPTNeoXConfig", "GPTNeoXModel",
            dict(vocab_size=V, hidden_size=32, num_hidden_layers=2, num_attention_heads=2, intermediate_size=64,
                 max_position_embeddings=64, use_cache=False), DEC_TEXT, dec),
        _hf("codegen", "CodeGenConfig", "CodeGenModel", dict(vocab_size=V, n_embd=64, n_layer=2, n_head=4, rotary_dim=8,
                                                          n_positions=64, n_ctx=64, use_cache=False), DEC_TEXT, dec),
        _hf("bloom", "BloomConfig", "BloomModel", dict(vocab_size=V, hidden_size=32, n_layer=2, n_head=2,
                                                    use_cache=False), DEC_TEXT, dec),
        _hf("falcon", "FalconConfig", "FalconModel", dict(vocab_size=V, hidden_size=32, num_hidden_layers=2,
                                                       num_attention_heads=2, use_cache=False), DEC_TEXT, dec),
        _hf("mpt", "MptConfig", "MptModel", dict(vocab_size=V, d_model=32, n_heads=2, n_layers=2, max_seq_len=64,
                                              use_cache=False), DEC_TEXT, dec),
        # encoder-decoders
        _hf("t5", "T5Config", "T5Model", dict(vocab_size=V, d_model=32, d_kv=16, d_ff=64, num_layers=2, num_heads=2,
                                           decoder_start_token_id=0, use_cache=False), S2S_TEXT, s2s),
        _hf("bart", "BartConfig", "BartModel", _SEQ2SEQ, S2S_TEXT, s2s),
        _hf("mbart", "MBartConfig", "MBartModel", _SEQ2SEQ, S2S_TEXT, s2s),
        _hf("pegasus", "PegasusConfig", "PegasusModel", _SEQ2SEQ, S2S_TEXT, s2s),
        _hf("marian", "MarianConfig", "MarianModel", dict(_SEQ2SEQ, decoder_start_token_id=0, pad_token_id=0),
            S2S_TEXT, s2s),
        _hf("m2m100", "M2M100Config", "M2M100Model", _SEQ2SEQ, S2S_TEXT, s2s),
        # vision
        _hf("vit", "ViTConfig", "ViTModel", _VIT, _pixels(), vis),
        _hf("deit", "DeiTConfig", "DeiTModel", _VIT, _pixels(), vis),
        _hf("beit", "BeitConfig", "BeitModel", dict(_VIT, vocab_size=V), _pixels(), vis),
        _hf("data2vec_vision", "Data2VecVisionConfig", "Data2VecVisionModel", _VIT, _pixels(), vis),
        _hf("dinov2", "Dinov2Config", "Dinov2Model", _VIT, _pixels(), vis),
        _hf("yolos", "YolosConfig", "YolosModel", dict(_VIT, image_size=[32, 32], num_detection_tokens=5), _pixels(), vis),
        _hf("swin", "SwinConfig", "SwinModel", dict(image_size=32, patch_size=4, embed_dim=16, depths=[1, 1],
                                                 num_heads=[1, 2], window_size=4), _pixels(), vis),
        _hf("convnext", "ConvNextConfig", "ConvNextModel", dict(num_stages=2, hidden_sizes=[8, 16], depths=[1, 1]), _pixels(), vis),
        _hf("resnet", "ResNetConfig", "ResNetModel", dict(embedding_size=16, hidden_sizes=[16, 32], depths=[1, 1],
                                                       layer_type="basic"), _pixels(), vis),
        _hf("regnet", "RegNetConfig", "RegNetModel", dict(embedding_size=16, hidden_sizes=[16, 32], depths=[1, 1],
                                                       groups_width=8), _pixels(), vis),
        _hf("segformer", "SegformerConfig", "SegformerModel",
            dict(num_encoder_blocks=2, depths=[1, 1], sr_ratios=[2, 1], hidden_sizes=[16, 32], patch_sizes=[7, 3],
                 strides=[4, 2], num_attention_heads=[1, 2], mlp_ratios=[2, 2], decoder_hidden_size=32),
            _pixels(64), vis),
        _hf("mobilevit", "MobileViTConfig", "MobileViTModel", dict(image_size=64), _pixels(64), vis),
        _hf("levit", "LevitConfig", "LevitModel", dict(image_size=64), _pixels(64), vis),
        # multimodal
        _hf("clip", "CLIPConfig", "CLIPModel",
            lambda: dict(text_config=_sub("CLIPTextConfig", **dict(_BERTLIKE, eos_token_id=2))(),
                         vision_config=_sub("CLIPVisionConfig", **_VIT)()), _clip, mm),
        _hf("siglip", "SiglipConfig", "SiglipModel",
            lambda: dict(text_config=_sub("SiglipTextConfig", **_BERTLIKE)(),
                         vision_config=_sub("SiglipVisionConfig", **_VIT)()), _clip, mm),
        # audio
        _hf("whisper", "WhisperConfig", "WhisperModel",
            dict(vocab_size=V, num_mel_bins=16, encoder_layers=2, decoder_layers=2, encoder_attention_heads=2,
                 decoder_attention_heads=2, encoder_ffn_dim=64, decoder_ffn_dim=64, d_model=32,
                 max_source_positions=16, max_target_positions=32, pad_token_id=0, bos_token_id=1,
                 eos_token_id=2, decoder_start_token_id=3, use_cache=False), _whisper, aud),
        _hf("speech_to_text", "Speech2TextConfig", "Speech2TextModel",
            dict(_SEQ2SEQ, input_feat_per_channel=16, max_source_positions=64, max_target_positions=64),
            _speech2text, aud),
        _hf("wav2vec2", "Wav2Vec2Config", "Wav2Vec2Model",
            dict(vocab_size=32, hidden_size=32, num_hidden_layers=2, num_attention_heads=2, intermediate_size=64,
                 conv_dim=(16, 16), conv_stride=(5, 2), conv_kernel=(10, 3), num_conv_pos_embeddings=16,
                 num_conv_pos_embedding_groups=2), _audio, aud),
        _hf("hubert", "HubertConfig", "HubertModel",
            dict(vocab_size=32, hidden_size=32, num_hidden_layers=2, num_attention_heads=2, intermediate_size=64,
                 conv_dim=(16, 16), conv_stride=(5, 2), conv_kernel=(10, 3), num_conv_pos_embeddings=16,
                 num_conv_pos_embedding_groups=2), _audio, aud),
    ]


def all_specs():
    return torchvision_specs() + timm_specs() + transformers_specs()


def select(specs, only=None, family=None):
    """``only``: names (``tv/resnet18``) or bare names (``resnet18`` matches every library's);
    ``family``: prefixes of the family (``torchvision``, ``torchvision.detection``, ``timm``)."""
    out = specs
    if family:
        fams = [f.strip() for f in family.split(",") if f.strip()]
        out = [s for s in out if any(s.family == f or s.family.startswith(f + ".") for f in fams)]
    if only:
        names = [n.strip() for n in only.split(",") if n.strip()]
        out = [s for s in out if s.name in names or s.name.split("/", 1)[1] in names]
    return out
