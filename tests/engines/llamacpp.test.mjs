// Differential test against llama.cpp's own code (llama.cpp 6c8dcaa, from the npm package llama.rn@0.12.9; built once
// by scripts/llamacpp.sh into ~/.cache/posenc-engines or $POSENC_ENGINE_CACHE, outside the checkout).
//
// For every .gguf fixture (tests/fixtures/gguf) and every config fixture the converter port handles (turned into a
// header-only .gguf by scripts/gguf-fixtures.mjs, the hand port of convert_hf_to_gguf.py), the harness
// (tests/llamacpp/harness.cpp) runs llama.cpp's loader (llama_model_loader + the architecture's load_hparams), derives
// llama_context's parameters for n_ctx 0 (the trained context, as llama-cli and llama-server's default `-c 0`, posenc's
// default), decides per layer whether the
// graph rotates, and runs ggml's CPU ggml_rope_ext / ggml_rope_multi on all-ones and random q at 64 positions
// 0 … n_ctx_train − 1. Per layer kind, posenc's answer — pe.ropeFromGGUF(file) and
// pe.ropeFromConfig(config, { engine: 'llama.cpp' }) applied with pe.ropeApply — must match it:
//   - which layers rotate (posenc `layers[il].rope`, or every layer when `layers` is null);
//   - the rotation: per channel pair i, the angle of ggml's output against posenc's, |Δθ_i| ≤ (2i + 8)·2⁻²³·|θ_i| + 2⁻¹⁸
//     rad. ggml computes θ_i in float32 as p·s^i with s = powf(base, −2/n_rot), one rounding per step (ggml-cpu/ops.cpp
//     rope_cache_init: theta *= theta_scale), then /freq_factor, ·freq_scale and the YaRN blend (≤ 4 roundings more),
//     so its relative error is ≤ (2i + 8)·2⁻²⁴ with powf's error taken as 1 ulp; doubled for safety; the absolute term
//     covers cosf/sinf and reading the angle back from float32 outputs. For Llama 3.1 at p = 131071 that is ≈ 0.016 rad
//     on pair 0 (θ = p exactly) … well below a wrong frequency or a wrong context choice (whole radians);
//   - the magnitude (YaRN's mscale · attn_factor: posenc attention_scaling), |ratio − 1| ≤ 2⁻¹⁶ on the all-ones head;
//   - channels past n_rot unchanged.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import init from 'posenc';
import { convertConfig } from '../../scripts/gguf-fixtures.mjs';
import { T, ggufFile } from '../js/gguf-writer.mjs';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const pe = await init();

function harnessPath() {
  const r = spawnSync('bash', [join(repo, 'scripts/llamacpp.sh')], { encoding: 'utf8', timeout: 40 * 60 * 1000, maxBuffer: 16 << 20 });
  if (r.status !== 0) throw new Error(`scripts/llamacpp.sh failed (${r.status ?? r.signal}):\n${r.stderr.slice(-4000)}`);
  return r.stdout.trim().split('\n').pop();
}
const HARNESS = harnessPath();

/** The harness's JSON for a file; n_ctx default: the library's (llama_context_default_params, 512); 0: the trained context. */
function llamacpp(file, nCtx) {
  const r = spawnSync(HARNESS, nCtx === undefined ? [file] : [file, String(nCtx)], { encoding: 'utf8', maxBuffer: 256 << 20, timeout: 120000 });
  if (r.status !== 0) throw new Error(`harness ${file} failed (${r.status ?? r.signal}): ${r.stderr.slice(-2000)}`);
  return JSON.parse(r.stdout);
}

const TWO_PI = 2 * Math.PI;
const wrap = (a) => a - TWO_PI * Math.round(a / TWO_PI);
/** Channel pair i's two indices for a pairing, as ggml and posenc lay them out. */
const pairOf = (layout, i, rot) => (layout === 'interleaved' ? [2 * i, 2 * i + 1] : [i, i + rot / 2]);

/**
 * Architectures whose q/k rows convert_hf_to_gguf permutes (LlamaModel.permute, at a458664): llama.cpp's NORM pairs
 * (2i, 2i+1) of the file are HF's rotate_half pairs (i, i + n_rot/2) of the checkpoint, so a config's 'half_split'
 * is compared channel for channel through that permutation.
 */
const PERMUTED = new Set(['llama', 'mistral3']);   // Ministral3Model is a LlamaModel

/**
 * posenc's rotation of the harness's q through the public API (pe.ropeApply with the description's inv_freq,
 * attention_scaling, layout and rotary_dim), compared pair by pair with ggml's output. Returns the first failure or null.
 */
function compareRun(run, positions, desc, arch, source) {
  const D = run.head_dim, H = 2, N = positions.length, rot = run.n_rot;
  if (desc.rotary_dim !== rot) return `rotary_dim: posenc ${desc.rotary_dim}, llama.cpp n_rot ${rot}`;
  if (desc.head_dim !== D && !(desc.head_dim === rot)) return `head_dim: posenc ${desc.head_dim}, llama.cpp n_embd_head_k ${D}`;
  const layout = run.mode === 0 ? 'interleaved' : 'half_split';
  // the converter's permutation: checkpoint channel j of a head sits at file channel perm[j]
  const permuted = source === 'config' && layout === 'interleaved' && desc.layout === 'half_split' && PERMUTED.has(arch);
  if (desc.layout !== layout && !permuted) return `layout: posenc '${desc.layout}', llama.cpp mode ${run.mode} ('${layout}')`;
  const perm = Int32Array.from({ length: D }, (_, j) => (permuted && j < rot ? (j < rot / 2 ? 2 * j : 2 * (j - rot / 2) + 1) : j));
  const q = Float32Array.from(run.q), ggml = Float32Array.from(run.out);
  const qHf = new Float32Array(q.length);
  for (let r = 0; r < N * H; r++) for (let j = 0; j < D; j++) qHf[r * D + j] = q[r * D + perm[j]];
  const oursHf = pe.ropeApply(qHf, { seq: N, heads: H, head_dim: D, rotary_dim: rot, layout: desc.layout, positions,
    rope: { inv_freq: desc.inv_freq, attention_scaling: desc.attention_scaling } });
  const ours = new Float32Array(q.length);   // back in the file's channel order
  for (let r = 0; r < N * H; r++) for (let j = 0; j < D; j++) ours[r * D + perm[j]] = oursHf[r * D + j];
  let worst = 0;
  for (let p = 0; p < N; p++) {
    for (let h = 0; h < H; h++) {
      const o = (p * H + h) * D;
      for (let i = 0; i < rot / 2; i++) {
        const [a, b] = pairOf(layout, i, rot);
        const x0 = q[o + a], x1 = q[o + b];
        const inN = Math.hypot(x0, x1);
        if (inN < 0.1) continue;
        const ag = Math.atan2(ggml[o + b], ggml[o + a]), ap = Math.atan2(ours[o + b], ours[o + a]);
        const theta = positions[p] * desc.inv_freq[i];
        const tol = (2 * i + 8) * 2 ** -23 * Math.abs(theta) + 2 ** -18;
        const d = Math.abs(wrap(ag - ap));
        worst = Math.max(worst, d / tol);
        if (d > tol) {
          return `pair ${i} at position ${positions[p]} (head ${h}): ggml angle ${ag.toFixed(6)}, posenc ${ap.toFixed(6)} ` +
            `(|Δ| ${d.toExponential(3)} > ${tol.toExponential(3)}; posenc inv_freq ${desc.inv_freq[i]})`;
        }
        if (h === 0) {
          const mg = Math.hypot(ggml[o + a], ggml[o + b]) / inN, mp = Math.hypot(ours[o + a], ours[o + b]) / inN;
          if (Math.abs(mg / mp - 1) > 2 ** -16) return `magnitude of pair ${i} at position ${positions[p]}: ggml ${mg}, posenc ${mp} (attention_scaling)`;
        }
      }
      for (let c = rot; c < D; c++) if (ggml[o + c] !== q[o + c]) return `channel ${c} (past n_rot ${rot}) changed by ggml`;
    }
  }
  return null;
}

/** posenc's layer kinds for n layers: [kind, rope?] per layer. */
function posencLayers(r, n) {
  if (r.layers) return r.layers.map((l) => [l.type, l.rope && r.layer_types[l.type] !== false]);
  return Array.from({ length: n }, () => [r.layer_type ?? 'full_attention', true]);
}

/** One assertion group per layer kind: llama.cpp's per-layer decision and rotation vs posenc's description `r`. */
function checkAgainst(t, name, source, ll, r, suffix = '') {
  const kinds = posencLayers(r, ll.n_layer);
  assert.equal(kinds.length, ll.n_layer, `${name} (${source}): posenc has ${kinds.length} layers, llama.cpp ${ll.n_layer}`);
  const byKind = new Map();
  ll.layers.forEach((l, il) => {
    const [kind, rope] = kinds[il];
    if (!byKind.has(kind)) byKind.set(kind, []);
    byKind.get(kind).push({ l, rope });
  });
  return [...byKind].map(([kind, ls]) => t.test(`${name} · ${kind} · ${source}${suffix}`,
    () => {
    for (const { l, rope } of ls) {
      assert.equal(rope, l.rope, `layer ${l.il}: posenc says ${rope ? 'RoPE' : 'no RoPE'}, llama.cpp ${l.rope ? 'rotates' : 'does not rotate'} (${l.why})`);
    }
    const runs = [...new Set(ls.filter((x) => x.l.rope).map((x) => x.l.run))];
    for (const k of runs) {
      const desc = r.layer_types[kind];
      assert.ok(desc, `posenc has no RoPE description for layer kind '${kind}' (layer_types: ${Object.keys(r.layer_types).join(', ')})`);
      const fail = compareRun(ll.runs[k], ll.positions, desc, ll.architecture, source);
      assert.equal(fail, null, `layers ${ls.filter((x) => x.l.run === k).map((x) => x.l.il).join(',')}: ${fail}`);
    }
  }));
}


const NOT_ROPE_KEY = /rope|context_length|key_length|value_length|head_count|embedding_length|block_count|sliding_window|full_attention_interval|recurrent_layers|temperature/;

const ggufDir = join(repo, 'tests/fixtures/gguf');
const ggufs = readdirSync(ggufDir).filter((f) => f.endsWith('.gguf')).sort();
const cfgDir = join(repo, 'tests/fixtures/configs');
const configs = readdirSync(cfgDir).filter((f) => f.endsWith('.json')).sort();
const tmp = mkdtempSync(join(tmpdir(), 'posenc-llamacpp-'));
process.on('exit', () => rmSync(tmp, { recursive: true, force: true }));

test('llama.cpp harness: filled-in keys never bear on RoPE', () => {
  for (const f of ggufs) {
    const ll = llamacpp(join(ggufDir, f));
    assert.ok(!ll.error, `${f}: ${ll.error}`);
    for (const k of ll.filled_keys) assert.ok(!NOT_ROPE_KEY.test(k), `${f}: the harness filled in ${k}`);
  }
});

for (const f of ggufs) {
  test(`llama.cpp vs ropeFromGGUF: ${f}`, async (t) => {
    const file = join(ggufDir, f);
    const ll = llamacpp(file, 0);   // -c 0, posenc's default context
    assert.ok(!ll.error, ll.error);
    const groups = checkAgainst(t, f, 'gguf', ll, await pe.ropeFromGGUF(file));
    if (ll.runs.some((x) => x.factors.startsWith('rope_factors'))) {   // LongRoPE: also at the library's n_ctx 512
      const lib = llamacpp(file);
      groups.push(...checkAgainst(t, f, 'gguf', lib, await pe.ropeFromGGUF(file, { n_ctx: 512 }), ` n_ctx ${lib.cparams.n_ctx}`));
    }
    await Promise.all(groups);
  });
}

for (const f of configs) {
  const config = JSON.parse(readFileSync(join(cfgDir, f), 'utf8'));
  const conv = convertConfig(config);
  if (!conv) {
    test(`llama.cpp vs ropeFromConfig: ${f}`, { skip: `the converter port has no mapping for '${config.model_type}'` }, () => {});
    continue;
  }
  test(`llama.cpp vs ropeFromConfig(engine 'llama.cpp') and ropeFromGGUF: ${f}`, async (t) => {
    const file = join(tmp, f.replace(/\.json$/, '.gguf'));
    writeFileSync(file, conv);
    const ll = llamacpp(file, 0);   // -c 0, posenc's default context
    assert.ok(!ll.error, ll.error);
    for (const k of ll.filled_keys) assert.ok(!NOT_ROPE_KEY.test(k), `the harness filled in ${k}`);
    const rc = pe.ropeFromConfig(config, { engine: 'llama.cpp' });
    const rg = await pe.ropeFromGGUF(file);
    const groups = [...checkAgainst(t, f, 'config', ll, rc), ...checkAgainst(t, f, 'gguf', ll, rg)];
    // LongRoPE's factors follow n_ctx: again at the library's llama_context_default_params (512), where it picks the short set
    if (ll.runs.some((x) => x.factors.startsWith('rope_factors'))) {
      const lib = llamacpp(file);
      const nCtx = lib.cparams.n_ctx;
      groups.push(...checkAgainst(t, f, 'config', lib, pe.ropeFromConfig(config, { engine: 'llama.cpp', n_ctx: 512 }), ` n_ctx ${nCtx}`),
        ...checkAgainst(t, f, 'gguf', lib, await pe.ropeFromGGUF(file, { n_ctx: 512 }), ` n_ctx ${nCtx}`));
    }
    await Promise.all(groups);
  });
}

// Headers of architectures with no fixture whose layer schedule llama.cpp fixes in code (NoPE steps, chunked or
// dense-first sliding layers, recurrent layers, learned positions): the same comparison, on minimal headers.
const synth = (arch, extra, layers) => ggufFile({ kv: [['general.architecture', T.str, arch], [`${arch}.context_length`, T.u32, 8192],
  [`${arch}.embedding_length`, T.u32, 4096], [`${arch}.block_count`, T.u32, layers], [`${arch}.attention.head_count`, T.u32, 32],
  [`${arch}.rope.freq_base`, T.f32, 500000], ...extra] });
const SYNTH = {
  'llama4 (chunked)': synth('llama4', [], 8),
  'llama4 (sliding_window 0)': synth('llama4', [['llama4.attention.sliding_window', T.u32, 0]], 8),
  smollm3: synth('smollm3', [], 8),
  'exaone4 (32 layers)': synth('exaone4', [], 32),
  cohere2: synth('cohere2', [['cohere2.attention.sliding_window', T.u32, 4096]], 8),
  smallthinker: synth('smallthinker', [['smallthinker.attention.sliding_window', T.u32, 4096]], 8),
  afmoe: synth('afmoe', [['afmoe.attention.sliding_window', T.u32, 4096]], 8),
  'qwen3next (recurrent_layers)': synth('qwen3next', [['qwen3next.attention.recurrent_layers', T.arr, [T.bool, [false, true, true, false]]]], 4),
  'gpt-oss (per-layer list)': synth('gpt-oss', [['gpt-oss.attention.sliding_window', T.u32, 128],
    ['gpt-oss.attention.sliding_window_pattern', T.arr, [T.bool, [true, true, true, false]]]], 4),
  'qwen2 (pattern key)': synth('qwen2', [['qwen2.attention.sliding_window_pattern', T.arr, [T.bool, [true, false, true, false]]]], 4),
};
for (const [name, bytes] of Object.entries(SYNTH)) {
  test(`llama.cpp vs ropeFromGGUF, header only: ${name}`, async (t) => {
    const file = join(tmp, `${name.replace(/\W+/g, '_')}.gguf`);
    writeFileSync(file, bytes);
    const ll = llamacpp(file);
    assert.ok(!ll.error, ll.error);
    await Promise.all(checkAgainst(t, name, 'gguf', ll, await pe.ropeFromGGUF(file)));
  });
}

test('llama.cpp vs ropeFromGGUF: learned absolute positions (starcoder, bert) — llama.cpp rotates no layer, posenc refuses', async () => {
  for (const arch of ['starcoder', 'bert']) {
    const file = join(tmp, `${arch}.gguf`);
    writeFileSync(file, synth(arch, [], 4));
    const ll = llamacpp(file);
    assert.ok(!ll.error, ll.error);
    assert.ok(ll.rope_type !== -1, `${arch}: llama_model_rope_type lists it`);
    assert.ok(ll.layers.every((l) => !l.rope), `${arch}: llama.cpp rotates a layer`);
    await assert.rejects(pe.ropeFromGGUF(file), new RegExp(`architecture '${arch}' uses learned absolute positions`));
  }
});

test('llama.cpp vs posenc: a config without RoPE (tests/fixtures/configs/not-rope/gpt2.json) — llama.cpp rotates no layer, posenc refuses', async () => {
  const config = JSON.parse(readFileSync(join(cfgDir, 'not-rope/gpt2.json'), 'utf8'));
  const file = join(tmp, 'gpt2.gguf');
  writeFileSync(file, convertConfig(config));
  const ll = llamacpp(file);
  assert.ok(!ll.error, ll.error);
  assert.ok(ll.layers.every((l) => !l.rope), 'llama.cpp rotates a gpt2 layer');
  assert.throws(() => pe.ropeFromConfig(config, { engine: 'llama.cpp' }), /not RoPE/);
  await assert.rejects(pe.ropeFromGGUF(file), /uses no RoPE in llama.cpp/);
});
