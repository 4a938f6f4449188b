// `posenc inspect` on image / video configs (per-axis RoPE), a VLM's vision tower, SigLIP 2 (no RoPE) and dual chunk
// attention, run as the bin (node dist/cli.js; the packed tarball's bin is tested in cli.test.mjs). The printed numbers
// are checked against closed forms written here: per axis inv_freq_k = θ^(−2k/d), wavelength 2π/inv_freq (DINOv3:
// 1/inv_freq, angles 2π·coordinate·inv_freq), and each model's split of the head at huggingface/diffusers@58eb52c0
// (Wan: h = w = 2⌊D/6⌋, t the rest; Cosmos: the same split, θ_t = 10000·rope_scale_t^(d/(d−2)); CogVideoX: t = D/4,
// h = w = 3⌊D/8⌋; HunyuanVideo / Flux: the config's list), and transformers' vision towers (Qwen-VL: head_dim/2 per
// axis; Pixtral: one spectrum θ^(−2k/head_dim), h the even k, w the odd k; DINOv3: θ = rope_theta, head_dim/2 per axis).
import test from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const fixture = (f) => join(repo, 'tests/fixtures/configs', f);
const cli = (args) => {
  const r = spawnSync('node', [join(repo, 'dist/cli.js'), ...args], { encoding: 'utf8', timeout: 60000 });
  return { status: r.status, out: r.stdout, err: r.stderr };
};
const TAU = 2 * Math.PI;
const close = (got, want, rel, what) => assert.ok(Math.abs(got - want) <= rel * Math.abs(want), `${what}: ${got} vs ${want}`);

/** The axis rows of the printed table: name → { rotary_dim, base, pairs, positions, fastest, slowest }. */
function rows(out) {
  const r = {};
  for (const line of out.split('\n')) {
    const m = line.match(/^ {4,6}(t|h|w|index) +(\d+) +([\d.e+]+)(?: \(10000 · NTK ([\d.]+)\))? +(\d+)…(\d+) +(.+?) +([\d.e+]+) … ([\d.e+]+) /);
    if (m) r[m[1]] = { rotary_dim: +m[2], base: +m[3], ntk: m[4] ? +m[4] : 1, pairs: [+m[5], +m[6]], form: m[7], fastest: +m[8], slowest: +m[9] };
  }
  return r;
}

/** Checks one printed axis against its closed form: d channels, base θ, first pair, wavelength scale (2π or 1). */
function axis(r, name, d, theta, first, { scale = TAU, kFast = 0, kSlow = d / 2 - 1, dSpec = d } = {}) {
  const a = r[name];
  assert.ok(a, `axis ${name} printed`);
  assert.equal(a.rotary_dim, d, `${name} rotary_dim`);
  close(a.base, theta, 5e-6, `${name} base`);
  assert.deepEqual(a.pairs, [first, first + d / 2 - 1], `${name} pairs`);
  // wavelength of pair k: scale / θ^(−2k/dSpec), printed to 6 significant digits
  close(a.fastest, scale * theta ** ((2 * kFast) / dSpec), 5e-6, `${name} fastest wavelength`);
  close(a.slowest, scale * theta ** ((2 * kSlow) / dSpec), 5e-6, `${name} slowest wavelength`);
}

test('diffusers: Wan, HunyuanVideo, Cosmos, Flux, CogVideoX — split, base, pairing, wavelengths per axis', () => {
  // Wan (WanRotaryPosEmbed): D = 128 → h = w = 2·⌊128/6⌋ = 42, t = 44; θ 10000; pairs (2i, 2i + 1)
  let r = cli(['inspect', fixture('diffusion/wan-t2v-class-defaults.json')]);
  assert.equal(r.status, 0, r.err);
  assert.match(r.out, /pairing +interleaved: pair p rotates channels \(2p, 2p \+ 1\)/);
  let a = rows(r.out);
  axis(a, 't', 44, 1e4, 0); axis(a, 'h', 42, 1e4, 22); axis(a, 'w', 42, 1e4, 43);
  assert.match(a.t.form, /integer grid/);
  // HunyuanVideo: rope_axes_dim [16, 56, 56], rope_theta 256
  r = cli(['inspect', fixture('diffusion/hunyuan-video-class-defaults.json')]);
  assert.equal(r.status, 0, r.err);
  a = rows(r.out);
  axis(a, 't', 16, 256, 0); axis(a, 'h', 56, 256, 8); axis(a, 'w', 56, 256, 36);
  // Cosmos: t 44 with θ = 10000·2^(44/42) (rope_scale [2, 1, 1]), h = w = 42 at 10000; rotate_half pairing; fps-scaled time
  r = cli(['inspect', fixture('diffusion/cosmos-class-defaults.json')]);
  assert.equal(r.status, 0, r.err);
  assert.match(r.out, /pairing +half_split: pair p rotates channels \(p, p \+ rotary_dim\/2\)/);
  a = rows(r.out);
  axis(a, 't', 44, 1e4 * 2 ** (44 / 42), 0); axis(a, 'h', 42, 1e4, 22); axis(a, 'w', 42, 1e4, 43);
  close(a.t.ntk, 2 ** (44 / 42), 5e-6, 'Cosmos NTK factor');
  assert.match(a.t.form, /base_fps 24/);
  assert.match(r.out, /warning: fps: not given/);
  // a 3×2×2 grid at 12 fps: time ids i·24/12
  r = cli(['inspect', fixture('diffusion/cosmos-class-defaults.json'), '--grid', '3,2,2', '--fps', '12']);
  assert.equal(r.status, 0, r.err);
  assert.match(r.out, /t positions: 0, 2, 4\n/);
  assert.match(r.out, /tokens +12 \(row-major over t, h, w/);
  // Flux (verbatim FLUX.1-schnell transformer config): axes_dims_rope [16, 56, 56], θ 10000, interleaved, the pipeline's ids
  r = cli(['inspect', fixture('diffusion/flux1-schnell-nf4-transformer.json'), '--grid', '1,2,3']);
  assert.equal(r.status, 0, r.err);
  a = rows(r.out);
  axis(a, 'index', 16, 1e4, 0); axis(a, 'h', 56, 1e4, 8); axis(a, 'w', 56, 1e4, 36);
  assert.match(r.out, /index positions: 0\n {4}h positions: 0, 1\n {4}w positions: 0, 1, 2\n/);
  // CogVideoX 1.5-style with RoPE: D = 64 → t = 16, h = w = 3·⌊64/8⌋ = 24
  r = cli(['inspect', fixture('diffusion/cogvideox-rope-class-defaults.json')]);
  assert.equal(r.status, 0, r.err);
  a = rows(r.out);
  axis(a, 't', 16, 1e4, 0); axis(a, 'h', 24, 1e4, 8); axis(a, 'w', 24, 1e4, 20);
  assert.match(a.h.form, /linspace over the crop/);
});

test('--json: inv_freq per axis is θ^(−2k/d), wavelengths 2π/inv_freq', () => {
  const r = cli(['inspect', fixture('diffusion/wan-t2v-class-defaults.json'), '--json']);
  assert.equal(r.status, 0, r.err);
  const j = JSON.parse(r.out);
  assert.equal(j.model, 'wan');
  assert.equal(j.layout, 'interleaved');
  assert.deepEqual(j.axes.map((x) => [x.name, x.rotary_dim, x.pairs]), [['t', 44, [0, 22]], ['h', 42, [22, 43]], ['w', 42, [43, 64]]]);
  for (const x of j.axes) {
    x.inv_freq.forEach((f, k) => close(f, 1e4 ** (-2 * k / x.rotary_dim), 1e-14, `${x.name} inv_freq[${k}]`));
    close(x.wavelengths.slowest, TAU * 1e4 ** ((x.rotary_dim - 2) / x.rotary_dim), 1e-13, `${x.name} slowest`);
    close(x.wavelengths.fastest, TAU, 1e-15, `${x.name} fastest`);
  }
});

test('vision encoders: DINOv3 (normalised coordinates, θ 100, prefix unrotated), Pixtral and Qwen-VL towers of VLM configs', () => {
  // DINOv3 ViT-B/16: head_dim 768/12 = 64, 32 per axis, θ 100; angle 2π·coord·inv_freq → wavelength 1/inv_freq
  let r = cli(['inspect', fixture('vision/dinov3-vitb16-class-defaults.json'), '--grid', '4,4']);
  assert.equal(r.status, 0, r.err);
  let a = rows(r.out);
  axis(a, 'h', 32, 100, 0, { scale: 1 }); axis(a, 'w', 32, 100, 16, { scale: 1 });
  assert.match(r.out, /h positions: -0\.75, -0\.25, 0\.25, 0\.75\n/); // 2(i + ½)/4 − 1
  assert.match(r.out, /unrotated prefix +5 tokens/); // CLS + num_register_tokens 4
  // Devstral 2 (verbatim): the text model as before, and its Pixtral tower (head_dim 64, θ 10000): one spectrum
  // θ^(−2k/64), k = 0…31, h the even k, w the odd k
  r = cli(['inspect', fixture('Devstral-Small-2-24B-Instruct.json')]);
  assert.equal(r.status, 0, r.err);
  assert.match(r.out, /rope_type +yarn, factor 48/);
  assert.match(r.out, /vision tower +per \(h, w\) axis:\n {4}reader +pixtral/);
  a = rows(r.out);
  axis(a, 'h', 32, 1e4, 0, { kFast: 0, kSlow: 30, dSpec: 64 });
  axis(a, 'w', 32, 1e4, 16, { kFast: 1, kSlow: 31, dSpec: 64 });
  // Qwen2.5-VL 7B (verbatim): text rope_theta 1e6; vision tower hidden_size 1280 / num_heads 16 = 80, 40 per axis, θ 10000
  r = cli(['inspect', fixture('Qwen2.5-VL-7B-Instruct.json')]);
  assert.equal(r.status, 0, r.err);
  assert.match(r.out, /rope_theta +1000000\n/);
  a = rows(r.out);
  axis(a, 'h', 40, 1e4, 0); axis(a, 'w', 40, 1e4, 20);
  // Qwen3-VL's vision tower alone: 1152 / 16 = 72, 36 per axis; plus its learned 48×48 table (2304 positions)
  r = cli(['inspect', fixture('vision/qwen3-vl-vision-class-defaults.json')]);
  assert.equal(r.status, 0, r.err);
  a = rows(r.out);
  axis(a, 'h', 36, 1e4, 0); axis(a, 'w', 36, 1e4, 18);
  assert.match(r.out, /learned absolute +also a 48×48 table \(num_position_embeddings 2304\)/);
});

test('models without RoPE say which positions they use: SigLIP 2 and CogVideoX 1.0 exit 2, a SigLIP tower inside a VLM is a line', () => {
  let r = cli(['inspect', fixture('vision/siglip2-class-defaults.json')]);
  assert.equal(r.status, 2);
  assert.equal(r.out, '');
  assert.match(r.err, /^posenc: vision_config\.model_type: 'siglip2_vision_model' has learned positions, not RoPE: a learned 16×16 2-D table \(num_patches = 256\)/);
  r = cli(['inspect', fixture('diffusion/cogvideox-class-defaults.json')]);
  assert.equal(r.status, 2);
  assert.match(r.err, /^posenc: use_rotary_positional_embeddings: false — this CogVideoX uses 3-D sinusoidal absolute position embeddings/);
  r = cli(['inspect', fixture('gemma-3-4b-it.json')]);
  assert.equal(r.status, 0, r.err);
  assert.match(r.out, /vision tower +no RoPE — vision_config\.model_type: 'siglip_vision_model' has learned positions/);
  assert.doesNotMatch(r.out, /reader +siglip/);
});

test('per-axis configs refuse the text-model options and bad grids, exit 2', () => {
  for (const [args, re] of [
    [['--compare', fixture('Qwen3-8B.json')], /--compare: for language models' RoPE/],
    [['--engine', 'vllm'], /--engine: for language models' RoPE/],
    [['--grid', '4,4'], /grid: must list 3 sizes \(t, h, w\)/],
    [['--grid', '4,x'], /--grid: must be sizes per axis/],
    [['--fps', '12'], /fps: only for Cosmos/]]) {
    const r = cli(['inspect', fixture('diffusion/wan-t2v-class-defaults.json'), ...args]);
    assert.equal(r.status, 2, args.join(' '));
    assert.match(r.err, re, args.join(' '));
  }
  const r = cli(['inspect', fixture('Qwen3-8B.json'), '--grid', '4,4']);
  assert.equal(r.status, 2);
  assert.match(r.err, /--grid: only for per-axis configs/);
});

/**
 * vLLM's dual chunk attention (DualChunkRotaryEmbedding + dual_chunk_flash_attn prefill), pair by pair: chunk length
 * L = chunk_size − local_size; keys rotated by j mod L; a query in the key's chunk by i mod L, in the next chunk by
 * min(i mod L + L, chunk_size) (the "successive" cache), further on by min(2L − 1, chunk_size) (the last "inter" entry).
 */
function bruteMax(chunk, local, n) {
  const L = chunk - local;
  let max = 0;
  for (let i = 0; i < n; i++) {
    for (let j = 0; j <= i; j++) {
      const ci = Math.floor(i / L), cj = Math.floor(j / L);
      const q = ci === cj ? i % L : ci === cj + 1 ? Math.min((i % L) + L, chunk) : Math.min(2 * L - 1, chunk);
      max = Math.max(max, q - (j % L));
    }
  }
  return max;
}

test('dual chunk attention: chunk_size, local_size and the largest distance seen (Qwen2.5-1M and brute force)', () => {
  const f = fixture('long-context/Qwen2.5-7B-Instruct-1M-assembled.json');
  let r = cli(['inspect', f]);
  assert.equal(r.status, 0, r.err);
  assert.match(r.out, /dual chunk +chunk_size 262144, local_size 8192 \(chunks of 253952\), original 262144/);
  // over 0…1009999 the far pairs are remapped: at most min(2L − 1, chunk_size) = min(507903, 262144)
  assert.match(r.out, /distance seen +at most 262144 over positions 0…1009999/);
  assert.equal(JSON.parse(cli(['inspect', f, '--json']).out).dual_chunk_reach.max_distance, 262144);
  // short contexts: only the true distances (0…99999 lies inside the first chunk)
  assert.match(cli(['inspect', f, '--positions', '99999']).out, /at most 99999 over positions 0…99999/);
  // small configs against the pair-by-pair rule: local_size below and above chunk_size / 2 (2L − 1 < chunk_size)
  const dir = mkdtempSync(join(tmpdir(), 'posenc-dca-'));
  try {
    const base = JSON.parse(readFileSync(fixture('Qwen2.5-7B.json'), 'utf8'));
    for (const [chunk, local, n] of [[16, 4, 60], [16, 11, 40], [16, 11, 8], [12, 0, 30], [16, 4, 20]]) {
      const p = join(dir, `c${chunk}-${local}-${n}.json`);
      writeFileSync(p, JSON.stringify({ ...base, max_position_embeddings: n, dual_chunk_attention_config: { chunk_size: chunk, local_size: local } }));
      const o = cli(['inspect', p]);
      assert.equal(o.status, 0, o.err);
      assert.match(o.out, new RegExp(`distance seen +at most ${bruteMax(chunk, local, n)} over positions 0…${n - 1} `), `${chunk}/${local}/${n}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
