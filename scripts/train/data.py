"""Text, vocabulary and weight files for the "train short, test long" models.

Text: the King James Bible (public domain) from Debian's `bible-kjv-text` package, read with the
`bible` program of `bible-kjv` (both installed by scripts/setup.sh). One verse per line, without
book/chapter headings or verse numbers. Fixed split by book: training text = Genesis 1:1 to
Philemon 1:25; held-out text = Hebrews 1:1 to Revelation 22:21 (the last nine books).

Weights: safetensors (https://github.com/huggingface/safetensors, format described in its README):
8-byte little-endian header length, a JSON header {name: {dtype, shape, data_offsets}}, then the
raw little-endian tensors. Written and read here with the standard library and torch only.
"""
import json
import re
import shutil
import struct
import subprocess

import torch

TRAIN_SPEC = "Gen1:1-Phm1:25"
HELDOUT_SPEC = "Heb1:1-Rev22:21"
VERSE = re.compile(r"^\s+\d+ (.*)$")


def kjv_text(spec):
    """Verse texts of a `bible` verse range, one per line (no headings, no verse numbers)."""
    exe = shutil.which("bible")
    if exe is None:
        raise RuntimeError("the `bible` program is missing: apt-get install bible-kjv bible-kjv-text "
                           "(scripts/setup.sh installs them)")
    out = subprocess.run([exe, "-l0", spec], check=True, capture_output=True, text=True).stdout
    verses = [m.group(1).strip() for m in map(VERSE.match, out.splitlines()) if m]
    return "\n".join(verses) + "\n"


def load_corpus():
    train, held = kjv_text(TRAIN_SPEC), kjv_text(HELDOUT_SPEC)
    vocab = "".join(sorted(set(train) | set(held)))
    return train, held, vocab


def encode(text, vocab):
    idx = {c: i for i, c in enumerate(vocab)}
    return torch.tensor([idx[c] for c in text], dtype=torch.long)


# --- safetensors ---------------------------------------------------------------------------
_DT = {"F16": (torch.float16, 2), "F32": (torch.float32, 4)}


def save_safetensors(path, tensors, metadata=None, dtype="F16"):
    tdt, size = _DT[dtype]
    header, blobs, off = {}, [], 0
    for name in sorted(tensors):
        t = tensors[name].detach().to(tdt).contiguous().cpu()
        b = t.numpy().tobytes()  # little-endian on every platform torch ships for
        header[name] = {"dtype": dtype, "shape": list(t.shape), "data_offsets": [off, off + len(b)]}
        blobs.append(b)
        off += len(b)
    if metadata:
        header["__metadata__"] = {k: str(v) for k, v in metadata.items()}
    h = json.dumps(header, separators=(",", ":")).encode()
    h += b" " * (-len(h) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(h)))
        f.write(h)
        for b in blobs:
            f.write(b)


def load_safetensors(path):
    with open(path, "rb") as f:
        raw = f.read()
    (n,) = struct.unpack("<Q", raw[:8])
    header = json.loads(raw[8:8 + n])
    base, out = 8 + n, {}
    for name, info in header.items():
        if name == "__metadata__":
            continue
        tdt, _ = _DT[info["dtype"]]
        a, b = info["data_offsets"]
        buf = bytearray(raw[base + a:base + b])
        t = torch.frombuffer(buf, dtype=tdt) if b > a else torch.zeros(0, dtype=tdt)
        out[name] = t.reshape(info["shape"]).float()
    return out
