"""The model card (README.md) written beside each trained model. Its numbers are parsed back by
tests/js/train-script.test.mjs: keep the 'First N training losses' line and the validation table."""
import json

REFS = {
    "learned": "GPT-2 (Radford et al. 2019), learned table `wpe` in openai/gpt-2 `src/model.py` at c2dae27c "
               "(initialised N(0, 0.02) here like every weight; GPT-2 used 0.01)",
    "sinusoidal": "Vaswani et al. 2017, *Attention Is All You Need*, §3.4–3.5 (arXiv:1706.03762)",
    "rope": "Su et al. 2021, *RoFormer* (arXiv:2104.09864); half-split layout of Hugging Face transformers' Llama",
    "alibi": "Press et al. 2022, *Train Short, Test Long* (arXiv:2108.12409); slopes as `get_slopes` in "
             "ofirpress/attention_with_linear_biases at 3b7c2eca",
    "t5": "Raffel et al. 2020, T5 (arXiv:1910.10683) §2.1; buckets as `_relative_position_bucket` in "
          "Hugging Face transformers' modeling_t5.py at 6b8b757d",
    "nope": "Kazemnejad et al. 2023, *The Impact of Positional Encoding on Length Generalization in "
            "Transformers* (arXiv:2305.19466)",
    "xpos": "Sun et al. 2023, *A Length-Extrapolatable Transformer* (arXiv:2212.10554); XPOS in "
            "microsoft/torchscale `torchscale/component/xpos_relative_position.py` at 776b070d",
    "kerple": "Chi et al. 2022, *KERPLE* (arXiv:2205.09921), logarithmic kernel; ParallelKerpleLog in "
              "chijames/KERPLE at 73f1ee2d",
}
EXTRA = {
    "learned": "Positions at or past the table's 128 rows reuse row 127 (the table has no row for them).",
    "t5": "One 32 × 4 table shared by all layers, as T5. Logits keep the 1/sqrt(head_dim) scale of the other models.",
    "kerple": "r1, r2 per layer and head (3 × 4 × 2 = 24 numbers), stored as `kerple_r1` / `kerple_r2`.",
    "xpos": "Scale base 512 as torchscale's default; positions centred on the window for the scale (it "
            "cancels in q·k, where only ζ^((m−n)/512) remains).",
}


def fmt(x):
    return "—" if x is None else f"{x:.4f}"


def write_card(path, cfg, hp, res, threads, train_spec, held_spec, n_train, n_held):
    s = res["scheme"]
    L = hp["context"]
    rows = "\n".join(
        f"| {k} ({int(k) // L}×) | {fmt(v['loss'])} | {fmt(v['loss_past_context'])} |" for k, v in res["val"].items())
    first = ", ".join(f"{x:.6f}" for x in res["first_losses"])
    cmd = f"nice -n 19 /usr/bin/python3 scripts/train/train.py --scheme {s}"
    text = f"""# posenc tiny model: `{s}`

A {res['params']:,}-parameter character-level decoder trained by the posenc project to compare position
schemes past their training length. Position scheme: **{s}** — {REFS[s]}.
{EXTRA.get(s, '')}

| | |
|---|---|
| Architecture | pre-norm decoder, RMSNorm (eps {cfg['rms_norm_eps']}), SwiGLU MLP, tied embeddings, no biases |
| Sizes | hidden {cfg['hidden_size']}, {cfg['num_hidden_layers']} layers, {cfg['num_attention_heads']} heads of {cfg['head_dim']}, MLP {cfg['intermediate_size']}, vocabulary {cfg['vocab_size']} characters |
| Parameters | {res['params']:,} |
| Position encoding | `{json.dumps(cfg['position_encoding'], ensure_ascii=False)}` |
| Data | King James Bible (public domain), Debian package `bible-kjv-text`, one verse per line |
| Split | train `{train_spec}` ({n_train:,} characters); held out `{held_spec}` ({n_held:,} characters) |
| Training | {res['steps']} steps × batch {hp['batch']} × context {L}; AdamW lr {hp['lr']} (warm-up {hp['warmup']}, cosine to {hp['min_lr_frac']}×), betas 0.9/0.95, weight decay {hp['weight_decay']}, clip {hp['clip']} |
| Seed | {res['seed']} (torch.manual_seed and the batch sampler), deterministic algorithms, {threads} torch thread(s) |
| Train time | {res['train_seconds'] / 60:.1f} min on 2 shared CPU cores (other jobs were running){f"; {res['train_cpu_seconds'] / 60:.1f} min of CPU time (the training process's own)" if 'train_cpu_seconds' in res else ''} |
| Weights | `model.safetensors`, float16; validation numbers below are of these f16 weights |

## Losses (nats per character)

Train loss, mean of the last 50 steps: {res['final_train_loss_mean_last_50']:.4f}

Validation on the first {hp['eval_tokens']:,} held-out characters, cut into windows of L characters (each window
starts with no context; every character is predicted once per L):

| L | mean loss | mean loss at positions ≥ {L} |
|---|---|---|
{rows}

First {len(res['first_losses'])} training losses: {first}

## Reproduce

```
{cmd}
/usr/bin/python3 scripts/train/train.py --eval web/models/{s}
```
"""
    with open(path, "w") as f:
        f.write(text)
