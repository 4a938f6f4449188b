"""numpy peer of `npm run bench` (run by tests/bench/run.mjs as a subprocess with Debian's /usr/bin/python3).

Each workload of tests/bench/plain.mjs written the way a numpy user would: vectorised, float32 where Hugging Face
computes float32 (angle tables: float32 products and sin/cos, as `torch.outer(t, inv_freq)`), float64 where
float32 would not hold the bench's tolerance (the decay sums), warm output arrays where numpy offers `out=`.
Inputs are the bench's deterministic inputs (plain.mjs `input(i)`), bit for bit.

argv[1]: JSON {"reps": R, "workloads": {name: [indices]}}. BLAS threads: OPENBLAS_NUM_THREADS in the environment
(only `scores` calls BLAS). Prints one JSON object {name: {"ms": [R timings], "sample": [values at the indices]}}.
"""
import json
import sys
import time

import numpy as np


def inputs(n, offset):
    i = np.arange(offset, offset + n, dtype=np.uint64)
    h = (i * np.uint64(0x9E3779B1)) & np.uint64(0xFFFFFFFF)
    h ^= h >> np.uint64(16)
    return ((h >> np.uint64(8)).astype(np.float64) / 2.0**23 - 1).astype(np.float32)


def rope_tables():
    seq, rot = 4096, 64
    inv = (10000.0 ** (-np.arange(0, rot, 2, dtype=np.float64) / rot)).astype(np.float32)
    t = np.arange(seq, dtype=np.float32)
    out = {}

    def run():
        a = np.outer(t, inv)
        out['cos'], out['sin'] = np.cos(a), np.sin(a)

    return run, lambda: np.concatenate((out['cos'].ravel(), out['sin'].ravel()))


def rope_apply():
    seq, heads, hd = 4096, 32, 128
    half, n = hd // 2, seq * heads * hd
    q, k = inputs(n, 0).reshape(seq, heads, hd), inputs(n, 2**28).reshape(seq, heads, hd)
    a = np.outer(np.arange(seq, dtype=np.float64), 10000.0 ** (-2 * np.arange(half) / hd))
    c, s = np.cos(a).astype(np.float32)[:, None, :], np.sin(a).astype(np.float32)[:, None, :]
    qo, ko = np.empty_like(q), np.empty_like(k)

    def apply(x, o):
        x1, x2 = x[..., :half], x[..., half:]
        np.multiply(x1, c, out=o[..., :half])
        o[..., :half] -= x2 * s
        np.multiply(x1, s, out=o[..., half:])
        o[..., half:] += x2 * c

    def run():
        apply(q, qo)
        apply(k, ko)

    return run, lambda: np.concatenate((qo.ravel(), ko.ravel()))


def scores():
    seq, d = 2048, 128
    half = d // 2
    q, k = inputs(seq * d, 0).reshape(seq, d), inputs(seq * d, 2**28).reshape(seq, d)
    mask = np.triu(np.ones((seq, seq), dtype=bool), 1)
    out = {}

    def run():
        a = np.outer(np.arange(seq, dtype=np.float64), 10000.0 ** (-2 * np.arange(half) / d))
        c, s = np.cos(a).astype(np.float32), np.sin(a).astype(np.float32)
        rq = np.concatenate((q[:, :half] * c - q[:, half:] * s, q[:, :half] * s + q[:, half:] * c), axis=1)
        rk = np.concatenate((k[:, :half] * c - k[:, half:] * s, k[:, :half] * s + k[:, half:] * c), axis=1)
        x = rq @ rk.T
        x *= np.float32(1 / np.sqrt(d))
        x[mask] = -np.inf
        x -= x.max(axis=1, keepdims=True)
        np.exp(x, out=x)
        x /= x.sum(axis=1, keepdims=True)
        out['x'] = x

    return run, lambda: out['x'].ravel()


def decay(ones):
    d, count, chunk = 512, 65536, 4096
    half = d // 2
    q = np.ones(d, np.float32) if ones else inputs(d, 0)
    k = np.ones(d, np.float32) if ones else inputs(d, 2**28)
    q64, k64 = q.astype(np.float64), k.astype(np.float64)
    hr = q64[0::2] * k64[0::2] + q64[1::2] * k64[1::2]
    hi = q64[1::2] * k64[0::2] - q64[0::2] * k64[1::2]
    theta = 10000.0 ** (-2 * np.arange(half) / d)
    out = np.empty(count, np.float32)

    def run():  # float64 angles in chunks of rows (a 65536 × 256 matrix at once would be 134 MB)
        for r0 in range(0, count, chunk):
            a = np.outer(np.arange(r0, r0 + chunk, dtype=np.float64), theta)
            out[r0:r0 + chunk] = np.cos(a) @ hr + np.sin(a) @ hi

    return run, lambda: out


def sinusoidal():
    n, d = 8192, 1024
    w = (10000.0 ** (-np.arange(0, d, 2, dtype=np.float64) / d)).astype(np.float32)
    t = np.arange(n, dtype=np.float32)
    pe = np.empty((n, d), np.float32)

    def run():
        a = np.outer(t, w)
        np.sin(a, out=pe[:, 0::2])
        np.cos(a, out=pe[:, 1::2])

    return run, lambda: pe.ravel()


def alibi():
    heads, n = 32, 2048
    slopes = (2.0 ** (-8.0 * np.arange(1, heads + 1) / heads)).astype(np.float32)
    out = np.empty((heads, n, n), np.float32)

    def run():
        dist = -np.abs(np.arange(n, dtype=np.float32)[None, :] - np.arange(n, dtype=np.float32)[:, None])
        np.multiply(slopes[:, None, None], dist[None], out=out)

    return run, lambda: out.ravel()


def t5():
    n, nb, exact, maxd = 2048, 16, 8, 128  # bidirectional, 32 buckets, as Hugging Face's _relative_position_bucket
    out = {}

    def run():
        rel = np.arange(n, dtype=np.int32)[None, :] - np.arange(n, dtype=np.int32)[:, None]
        b = (rel > 0).astype(np.int32) * nb
        r = np.abs(rel)
        large = exact + (np.log(np.maximum(r, 1).astype(np.float32) / exact) / np.float32(np.log(maxd / exact)) * (nb - exact)).astype(np.int32)
        large = np.minimum(large, nb - 1)
        b += np.where(r < exact, r, large)
        out['b'] = b

    return run, lambda: out['b'].ravel()


WORKLOADS = {'rope_tables': rope_tables, 'rope_apply': rope_apply, 'scores': scores,
             'decay_ones': lambda: decay(True), 'decay_random': lambda: decay(False), 'sinusoidal': sinusoidal,
             'alibi': alibi, 't5': t5}


def main():
    spec = json.loads(sys.argv[1])
    res = {}
    for name, idx in spec['workloads'].items():
        run, result = WORKLOADS[name]()
        run()  # warm: first touch of every output page
        ms = []
        for _ in range(spec['reps']):
            t0 = time.perf_counter()
            run()
            ms.append((time.perf_counter() - t0) * 1e3)
        flat = result()
        res[name] = {'ms': ms, 'sample': [float(flat[i]) for i in idx]}
    print(json.dumps(res))


if __name__ == '__main__':
    main()
