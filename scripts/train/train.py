#!/usr/bin/python3
"""Train short, test long: the same tiny character-level decoder, once per position scheme.

  /usr/bin/python3 scripts/train/train.py --all                 # every scheme → web/models/<scheme>/
  /usr/bin/python3 scripts/train/train.py --scheme alibi        # one scheme
  /usr/bin/python3 scripts/train/train.py --scheme alibi --steps 20 --no-save --json   # a quick path
  /usr/bin/python3 scripts/train/train.py --eval web/models/alibi web/models/rope      # evaluate saved models
  /usr/bin/python3 scripts/train/train.py --nll web/models/alibi --length 1024        # per-character losses, one window

PyTorch from Debian's python3-torch, CPU, deterministic algorithms, fixed seeds, 1 thread by default (on two cores
shared with other jobs, a 20-step trial ran 0.25 s per step with one thread and 1.9 s with two). The text and the
split are in data.py, the model and the schemes in model.py, the model card in card.py.
"""
import argparse
import json
import math
import os
import sys
import time

import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from data import HELDOUT_SPEC, TRAIN_SPEC, encode, kjv_text, load_corpus, load_safetensors, save_safetensors  # noqa: E402
from model import SCHEMES, Decoder, load_state, state_for_file  # noqa: E402
from card import write_card  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HP = dict(hidden_size=96, num_hidden_layers=3, num_attention_heads=4, intermediate_size=256,
          rms_norm_eps=1e-5, context=128, batch=32, steps=2400, lr=3e-3, warmup=100, min_lr_frac=0.1,
          weight_decay=0.1, clip=1.0, seed=1234, eval_tokens=16384, record_steps=20)
FACTORS = [1, 2, 4, 8]


def position_config(scheme, hp):
    return {
        "learned": {"type": "learned", "num_positions": hp["context"]},
        "sinusoidal": {"type": "sinusoidal", "base": 10000, "embed_scale": "sqrt(hidden_size)"},
        "rope": {"type": "rope", "theta": 10000.0, "layout": "half_split"},
        "alibi": {"type": "alibi", "slopes": "geometric, ofirpress get_slopes"},
        "t5": {"type": "t5", "num_buckets": 32, "max_distance": 128, "bidirectional": False,
               "shared_across_layers": True},
        "nope": {"type": "nope"},
        "xpos": {"type": "xpos", "theta": 10000.0, "scale_base": 512, "layout": "interleaved"},
        "kerple": {"type": "kerple", "kernel": "log", "eps": 0.01},
    }[scheme]


def make_config(scheme, vocab, hp):
    pe = position_config(scheme, hp)
    if scheme == "alibi":
        from model import alibi_slopes
        pe["slopes"] = alibi_slopes(hp["num_attention_heads"])
    cfg = {"model_type": "posenc-tiny", "architectures": ["PosencTinyForCausalLM"],
           "hidden_size": hp["hidden_size"], "num_hidden_layers": hp["num_hidden_layers"],
           "num_attention_heads": hp["num_attention_heads"], "num_key_value_heads": hp["num_attention_heads"],
           "head_dim": hp["hidden_size"] // hp["num_attention_heads"],
           "intermediate_size": hp["intermediate_size"], "hidden_act": "silu", "vocab_size": len(vocab),
           "max_position_embeddings": hp["context"], "rms_norm_eps": hp["rms_norm_eps"],
           "tie_word_embeddings": True, "attention_bias": False, "torch_dtype": "float16",
           "position_encoding": pe, "tokenizer": {"type": "char", "vocab": vocab}}
    if scheme == "rope":
        cfg["rope_theta"] = pe["theta"]
    return cfg


def setup(threads=1):
    torch.set_num_threads(threads)
    torch.use_deterministic_algorithms(True)


def lr_at(step, hp):
    if step < hp["warmup"]:
        return hp["lr"] * (step + 1) / hp["warmup"]
    t = (step - hp["warmup"]) / max(1, hp["steps"] - hp["warmup"])
    return hp["lr"] * (hp["min_lr_frac"] + (1 - hp["min_lr_frac"]) * 0.5 * (1 + math.cos(math.pi * t)))


def train(scheme, hp, train_ids, vocab, log=print):
    torch.manual_seed(hp["seed"])
    cfg = make_config(scheme, vocab, hp)
    model = Decoder(cfg)
    decay = [p for n, p in model.named_parameters() if p.dim() == 2]
    other = [p for n, p in model.named_parameters() if p.dim() != 2]
    opt = torch.optim.AdamW([{"params": decay, "weight_decay": hp["weight_decay"]},
                             {"params": other, "weight_decay": 0.0}], lr=hp["lr"], betas=(0.9, 0.95))
    gen = torch.Generator().manual_seed(hp["seed"])
    T, B, losses, t0, c0 = hp["context"], hp["batch"], [], time.time(), time.process_time()
    for step in range(hp["steps"]):
        starts = torch.randint(0, len(train_ids) - T - 1, (B,), generator=gen)
        batch = torch.stack([train_ids[s:s + T + 1] for s in starts.tolist()])
        for g in opt.param_groups:
            g["lr"] = lr_at(step, hp)
        loss = F.cross_entropy(model(batch[:, :-1]).reshape(-1, len(vocab)), batch[:, 1:].reshape(-1))
        opt.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), hp["clip"])
        opt.step()
        losses.append(loss.item())
        if step % 100 == 0 or step == hp["steps"] - 1:
            log(f"[{scheme}] step {step:5d}  loss {loss.item():.4f}  {time.time() - t0:7.1f}s")
    # wall-clock and this process's CPU time (on cores shared with other jobs, the second is the training's own cost)
    return model, cfg, losses, time.time() - t0, time.process_time() - c0


@torch.no_grad()
def evaluate(model, held_ids, context, eval_tokens, factors=FACTORS):
    """Mean next-character loss (nats) on the first eval_tokens held-out targets, cut into windows of
    L = f·context (every target once per L, each window starting fresh), and the mean over the
    positions at or past `context` within those windows (the part the model never trained on)."""
    model.eval()
    out = {}
    for f in factors:
        L = f * context
        tot, n, tail, nt = 0.0, 0, 0.0, 0
        for w in range(eval_tokens // L):
            seg = held_ids[w * L: w * L + L + 1][None]
            nll = F.cross_entropy(model(seg[:, :-1])[0], seg[0, 1:], reduction="none")
            tot, n = tot + nll.sum().item(), n + L
            if f > 1:
                tail, nt = tail + nll[context:].sum().item(), nt + L - context
        out[str(L)] = {"loss": tot / n, "loss_past_context": (tail / nt) if nt else None}
    return out


def round_f16(model):
    for p in model.state_dict().values():
        p.copy_(p.half().float())


def load_model(folder):
    with open(os.path.join(folder, "config.json")) as f:
        cfg = json.load(f)
    model = Decoder(cfg)
    load_state(model, load_safetensors(os.path.join(folder, "model.safetensors")))
    return model, cfg


def count_params(model):
    return sum(p.numel() for p in model.parameters())


def run_scheme(scheme, hp, corpus, save, as_json, threads):
    train_text, held_text, vocab = corpus
    train_ids, held_ids = encode(train_text, vocab), encode(held_text, vocab)
    log = (lambda s: print(s, file=sys.stderr)) if as_json else print
    model, cfg, losses, secs, cpu = train(scheme, hp, train_ids, vocab, log)
    result = {"scheme": scheme, "params": count_params(model), "steps": hp["steps"], "seed": hp["seed"],
              "train_seconds": round(secs, 1), "train_cpu_seconds": round(cpu, 1), "first_losses": losses[: hp["record_steps"]],
              "final_train_loss_mean_last_50": sum(losses[-50:]) / len(losses[-50:])}
    if save:
        round_f16(model)  # the card's validation numbers are those of the committed f16 weights
        result["val"] = evaluate(model, held_ids, hp["context"], hp["eval_tokens"])
        out = os.path.join(ROOT, "web", "models", scheme)
        os.makedirs(out, exist_ok=True)
        save_safetensors(os.path.join(out, "model.safetensors"), state_for_file(model),
                         {"format": "pt", "scheme": scheme})
        with open(os.path.join(out, "config.json"), "w") as f:
            json.dump(cfg, f, indent=1, ensure_ascii=False)
            f.write("\n")
        write_card(os.path.join(out, "README.md"), cfg, hp, result, threads, TRAIN_SPEC, HELDOUT_SPEC,
                   len(train_text), len(held_text))
        log(f"[{scheme}] saved {out}: {json.dumps(result['val'])}")
    if as_json:
        print(json.dumps(result))
    return result


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--scheme", choices=SCHEMES)
    ap.add_argument("--all", action="store_true")
    ap.add_argument("--steps", type=int, help=f"default {HP['steps']}")
    ap.add_argument("--no-save", action="store_true")
    ap.add_argument("--eval", metavar="DIR", nargs="+", help="evaluate saved model folders")
    ap.add_argument("--factors", default="1,2,4,8")
    ap.add_argument("--nll", metavar="DIR", nargs="+",
                    help="per-character losses of saved model folders on one window of held-out text (--length)")
    ap.add_argument("--length", type=int, default=1024, help="--nll: the window's length in characters")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--threads", type=int, default=1)
    a = ap.parse_args()
    setup(a.threads)
    hp = dict(HP)
    if a.steps:
        hp["steps"] = a.steps
    if a.nll:  # one window from the start of the held-out text: the text and each model's loss at every position
        text = kjv_text(HELDOUT_SPEC)[: a.length + 1]
        res = {"text": text}
        with torch.no_grad():
            for folder in a.nll:
                model, cfg = load_model(folder)
                model.eval()
                seg = encode(text, cfg["tokenizer"]["vocab"])[None]
                res[folder] = F.cross_entropy(model(seg[:, :-1])[0], seg[0, 1:], reduction="none").tolist()
        print(json.dumps(res))
        return
    if a.eval:
        held_text, res = kjv_text(HELDOUT_SPEC), {}
        for folder in a.eval:
            model, cfg = load_model(folder)
            ids = encode(held_text, cfg["tokenizer"]["vocab"])
            res[folder] = evaluate(model, ids, cfg["max_position_embeddings"], hp["eval_tokens"],
                                   [int(x) for x in a.factors.split(",")])
        print(json.dumps(res) if a.json else json.dumps(res, indent=1))
        return
    if not (a.all or a.scheme):
        ap.error("give --scheme, --all or --eval")
    corpus = load_corpus()
    for s in (SCHEMES if a.all else [a.scheme]):
        run_scheme(s, hp, corpus, not a.no_save, a.json, a.threads)


if __name__ == "__main__":
    main()
