// pe.ropeAxesFromConfig: the per-axis RoPE of diffusion transformers (Wan, HunyuanVideo, Cosmos, Flux, CogVideoX), vision
// encoders (DINOv3, Pixtral) and VLM vision towers (Qwen2.5-VL, Qwen3-VL), and SigLIP 2's learned positions refused.
// Every expected number is a closed form written here from the reference code (huggingface/diffusers@58eb52c0,
// huggingface/transformers at the commits cited in web/src/config/axes.ts), never a value posenc printed.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import init from 'posenc';
import { REL, close } from './config-helpers.mjs';

const pe = await init();
const fx = (f) => readFileSync(new URL(`../fixtures/configs/${f}`, import.meta.url), 'utf8');
const json = (f) => JSON.parse(fx(f));
/** get_1d_rotary_pos_embed: 1 / θ^(arange(0, d, 2)[: d/2] / d). */
const freqs = (theta, d) => Array.from({ length: d / 2 }, (_, k) => 1 / theta ** ((2 * k) / d));
const POS = 1e-15;   // positions: float64 of the same closed form, up to 2 ulp
const bad = (cfg, re, opts) => assert.throws(() => pe.ropeAxesFromConfig(cfg, opts), (e) => e.name === 'PosencError' && re.test(e.message), String(re));
const shape = (r) => r.axes.map((a) => [a.name, a.rotary_dim, a.pairs]);

test('Wan: h = w = 2·⌊D/6⌋, t the rest, θ = 10⁴, interleaved pairs, integer grid (WanRotaryPosEmbed)', () => {
  const r = pe.ropeAxesFromConfig(fx('diffusion/wan-t2v-class-defaults.json'), { grid: [3, 4, 5] });
  const D = 128, hw = 2 * Math.floor(D / 6), t = D - 2 * hw;   // 42, 42, 44
  assert.deepEqual([r.model, r.layout, r.head_dim, r.rotary_dim], ['wan', 'interleaved', D, D]);
  assert.deepEqual(shape(r), [['t', t, [0, t / 2]], ['h', hw, [t / 2, t / 2 + hw / 2]], ['w', hw, [t / 2 + hw / 2, D / 2]]]);
  r.axes.forEach((a) => { close(a.inv_freq, freqs(1e4, a.rotary_dim), REL, `wan ${a.name}`); assert.equal(a.base, 1e4); });
  assert.deepEqual(r.axes.map((a) => Array.from(a.positions)), [[0, 1, 2], [0, 1, 2, 3], [0, 1, 2, 3, 4]]);
  // another head size: D = 64 → h = w = 20, t = 24
  const s = pe.ropeAxesFromConfig({ _class_name: 'WanTransformer3DModel', attention_head_dim: 64 });
  assert.deepEqual(s.axes.map((a) => a.rotary_dim), [24, 20, 20]);
});

test('HunyuanVideo: rope_axes_dim [16, 56, 56] at rope_theta 256, interleaved', () => {
  const r = pe.ropeAxesFromConfig(json('diffusion/hunyuan-video-class-defaults.json'));
  assert.deepEqual(shape(r), [['t', 16, [0, 8]], ['h', 56, [8, 36]], ['w', 56, [36, 64]]]);
  r.axes.forEach((a) => { close(a.inv_freq, freqs(256, a.rotary_dim), REL, `hunyuan ${a.name}`); assert.equal(a.base, 256); });
  assert.equal(r.layout, 'interleaved');
  bad({ _class_name: 'HunyuanVideoTransformer3DModel', rope_axes_dim: [16, 56, 48] }, /^rope_axes_dim: must sum to attention_head_dim = 128 \(got 16 \+ 56 \+ 48\)/);
  bad({ _class_name: 'HunyuanVideoTransformer3DModel', rope_axes_dim: [15, 57, 56] }, /^rope_axes_dim\[0\]: an axis's rotary dimension must be even/);
});

test('Cosmos: per-axis NTK base 10000·rope_scale^(d/(d−2)), half-split pairs, time ids i·24/fps', () => {
  const r = pe.ropeAxesFromConfig(json('diffusion/cosmos-class-defaults.json'), { grid: [4, 2, 2], fps: 30 });
  const [dt, dh] = [44, 42];   // dim_h = dim_w = 128 // 6 · 2, dim_t the rest
  assert.deepEqual(shape(r), [['t', dt, [0, 22]], ['h', dh, [22, 43]], ['w', dh, [43, 64]]]);
  assert.equal(r.layout, 'half_split');   // apply_rotary_emb(use_real_unbind_dim=-2) on cat([t, h, w] · 2)
  const tBase = 1e4 * 2 ** (dt / (dt - 2));
  assert.ok(Math.abs(r.axes[0].base - tBase) <= REL * tBase && r.axes[0].ntk_factor > 2);
  close(r.axes[0].inv_freq, freqs(tBase, dt), 1e-12, 'cosmos t');
  for (const a of r.axes.slice(1)) { assert.equal(a.base, 1e4); close(a.inv_freq, freqs(1e4, dh), REL, `cosmos ${a.name}`); }
  close(r.axes[0].positions, [0, 1, 2, 3].map((i) => (i / 30) * 24), POS, 'fps-scaled t');
  assert.deepEqual(Array.from(r.axes[1].positions), [0, 1]);
  const img = pe.ropeAxesFromConfig(json('diffusion/cosmos-class-defaults.json'), { grid: [2, 1, 1] });
  assert.deepEqual(Array.from(img.axes[0].positions), [0, 1]);
  assert.ok(img.warnings.some((w) => /^fps: not given/.test(w)));
  // another rope_scale: h scaled by 3 → 10000·3^(42/40)
  const s = pe.ropeAxesFromConfig({ _class_name: 'CosmosTransformer3DModel', rope_scale: [1, 3, 1] });
  assert.ok(Math.abs(s.axes[1].base - 1e4 * 3 ** (42 / 40)) <= 1e-12 * s.axes[1].base);
  assert.equal(s.axes[0].base, 1e4);
  bad({ _class_name: 'CosmosTransformer3DModel', rope_scale: [2, 0, 1] }, /^rope_scale\[1\]: must be a finite number in \(0, 1000000\]/);
  bad(json('diffusion/wan-t2v-class-defaults.json'), /^fps: only for Cosmos/, { fps: 24 });
});

test('Flux: axes_dims_rope [16, 56, 56] at θ 10000, pipeline ids (0, row, column)', () => {
  const r = pe.ropeAxesFromConfig(json('diffusion/flux1-schnell-nf4-transformer.json'), { grid: [1, 2, 3] });
  assert.deepEqual(shape(r), [['index', 16, [0, 8]], ['h', 56, [8, 36]], ['w', 56, [36, 64]]]);
  r.axes.forEach((a) => close(a.inv_freq, freqs(1e4, a.rotary_dim), REL, `flux ${a.name}`));
  assert.deepEqual(r.axes.map((a) => Array.from(a.positions)), [[0], [0, 1], [0, 1, 2]]);
  assert.equal(r.layout, 'interleaved');
  bad({ _class_name: 'FluxTransformer2DModel', axes_dims_rope: [16, 56] }, /^axes_dims_rope: must be a list of 3 numbers/);
});

test('CogVideoX: t = D/4, h = w = ⌊D/8⌋·3 at θ 10000; 1.0 crop coordinates; no RoPE without use_rotary_positional_embeddings', () => {
  bad(json('diffusion/cogvideox-class-defaults.json'), /^use_rotary_positional_embeddings: false — this CogVideoX uses 3-D sinusoidal absolute position embeddings/);
  const r = pe.ropeAxesFromConfig(json('diffusion/cogvideox-rope-class-defaults.json'), { grid: [2, 30, 45] });
  assert.deepEqual(shape(r), [['t', 16, [0, 8]], ['h', 24, [8, 20]], ['w', 24, [20, 32]]]);
  r.axes.forEach((a) => close(a.inv_freq, freqs(1e4, a.rotary_dim), REL, `cog ${a.name}`));
  // at the base grid (60/2 × 90/2) the crop is the whole grid: linspace(0, n − 1, n)
  close(r.axes[1].positions, Array.from({ length: 30 }, (_, i) => i), POS, 'h at base size');
  // a square grid 30 × 30 against base 30 × 45: resize_width = round(30/30·30) = 30, crop_left = round((45 − 30)/2) = 8 (7.5 rounds half to even in Python: 8)
  const sq = pe.ropeAxesFromConfig(json('diffusion/cogvideox-rope-class-defaults.json'), { grid: [1, 30, 30] });
  close(sq.axes[2].positions, Array.from({ length: 30 }, (_, i) => 8 + ((38 * 29) / 30 - 8) * (i / 29)), 1e-13, 'w crop');
});

test('DINOv3: θ = 100, inv_freq 1/θ^(4k/D), angles 2π·coordinate, centres 2(i + ½)/n − 1, CLS + registers unrotated', () => {
  const r = pe.ropeAxesFromConfig(fx('vision/dinov3-vitb16-class-defaults.json'), { grid: [4, 3] });
  const D = 768 / 12, q = D / 4;
  assert.deepEqual([r.model, r.layout, r.head_dim, r.unrotated_prefix_tokens], ['dinov3', 'half_split', D, 5]);
  assert.deepEqual(shape(r), [['h', D / 2, [0, q]], ['w', D / 2, [q, 2 * q]]]);
  const want = Array.from({ length: q }, (_, k) => 1 / 100 ** ((4 * k) / D));   // torch.arange(0, 1, 4/head_dim)
  r.axes.forEach((a) => { close(a.inv_freq, want, REL, `dinov3 ${a.name}`); assert.equal(a.angle_scale, 2 * Math.PI); });
  close(r.axes[0].positions, [-0.75, -0.25, 0.25, 0.75], POS, 'h centres');
  close(r.axes[1].positions, [-2 / 3, 0, 2 / 3], POS, 'w centres');
  assert.ok(r.warnings.some((w) => /training only/.test(w)));
  // ropeFromConfig points here instead of inventing a text RoPE
  assert.throws(() => pe.ropeFromConfig(fx('vision/dinov3-vitb16-class-defaults.json')), /^PosencError: model_type: 'dinov3_vit' is a vision encoder: .* ropeAxesFromConfig/);
});

test('VLM vision towers: Qwen2.5-VL and Qwen3-VL (integer rows / columns, θ 10000, + Qwen3-VL learned table), Pixtral (even / odd frequencies)', () => {
  const q25 = pe.ropeAxesFromConfig(fx('Qwen2.5-VL-7B-Instruct.json'));
  const D = 1280 / 16;   // embed_dim / num_heads; VisionRotaryEmbedding(D/2): 1/θ^(arange(0, D/2, 2)/(D/2))
  assert.deepEqual([q25.model, q25.layout, q25.learned_absolute], ['qwen2_vl', 'half_split', null]);
  q25.axes.forEach((a) => close(a.inv_freq, freqs(1e4, D / 2), REL, `qwen2.5 ${a.name}`));
  // the same tower ropeFromConfig reports as vision_rope
  assert.equal(pe.ropeFromConfig(fx('Qwen2.5-VL-7B-Instruct.json')).vision_rope.rotary_dim, q25.head_dim);
  const q3 = pe.ropeAxesFromConfig(fx('vision/qwen3-vl-vision-class-defaults.json'));
  assert.deepEqual([q3.model, q3.head_dim, q3.learned_absolute.num_position_embeddings, q3.learned_absolute.grid_per_side], ['qwen3_vl', 72, 2304, 48]);
  q3.axes.forEach((a) => close(a.inv_freq, freqs(1e4, 36), REL, `qwen3 ${a.name}`));
  const px = pe.ropeAxesFromConfig(fx('Devstral-Small-2-24B-Instruct.json'));
  const all = freqs(1e4, 64);   // PixtralRotaryEmbedding: freqs over head_dim 64; h takes [::2], w [1::2]
  close(px.axes[0].inv_freq, all.filter((_, k) => k % 2 === 0), REL, 'pixtral h');
  close(px.axes[1].inv_freq, all.filter((_, k) => k % 2 === 1), REL, 'pixtral w');
  assert.deepEqual([px.model, px.layout, px.rotary_dim], ['pixtral', 'half_split', 64]);
});

test('SigLIP 2: learned 2-D absolute positions, a PosencError — never a made-up RoPE (also from ropeFromConfig)', () => {
  bad(fx('vision/siglip2-class-defaults.json'), /^vision_config\.model_type: 'siglip2_vision_model' has learned positions, not RoPE: a learned 16×16 2-D table \(num_patches = 256\) resized bilinearly/);
  assert.throws(() => pe.ropeFromConfig({ model_type: 'siglip2', hidden_size: 768, num_attention_heads: 12 }), /model_type: 'siglip2' uses learned 2-D absolute positions/);
});

test('bad input: diffusers configs are refused by ropeFromConfig, unknown classes and grids named', () => {
  assert.throws(() => pe.ropeFromConfig(fx('diffusion/flux1-schnell-nf4-transformer.json')), /^PosencError: _class_name: 'FluxTransformer2DModel' is a diffusers model config: .* ropeAxesFromConfig/);
  bad({ _class_name: 'UNet2DConditionModel' }, /^_class_name: 'UNet2DConditionModel' is not a diffusers transformer posenc reads/);
  bad({ model_type: 'llama' }, /^model_type: 'llama' is not a vision model with RoPE .* for a text model use ropeFromConfig/);
  bad(fx('diffusion/wan-t2v-class-defaults.json'), /^grid: must list 3 sizes \(t, h, w\)/, { grid: [2, 2] });
  bad(fx('diffusion/wan-t2v-class-defaults.json'), /^grid\[1\]: must be an integer in \[1, 1048576\]/, { grid: [2, 0, 2] });
  bad({ _class_name: 'WanTransformer3DModel', attention_head_dim: 1e9 }, /^attention_head_dim: must be an integer in \[1, 8192\]/);
  bad('{', /^config: not valid JSON/);
});

test('ropeAxesTables: cos/sin over the (t, h, w) grid, token-major with the last axis fastest, each axis its own frequencies', () => {
  const TOL = 2e-7;   // float32 cos/sin of float64 angles (the core's table accuracy)
  const check = (cfg, grid, opts, axisPos, axisFreq, scale = 1) => {
    const { cos, sin } = pe.ropeAxesTables(cfg, { grid, ...opts });
    const half = axisFreq.reduce((s, f) => s + f.length, 0), n = grid.reduce((a, b) => a * b, 1);
    assert.equal(cos.length, n * half);
    for (let k = 0; k < n; k++) {
      const idx = [];
      let rest = k;
      for (let a = grid.length - 1; a >= 0; a--) { idx[a] = rest % grid[a]; rest = Math.floor(rest / grid[a]); }
      let p = 0;
      axisFreq.forEach((fs, a) => fs.forEach((f) => {
        const ang = scale * axisPos[a](idx[a], grid[a]) * f;
        assert.ok(Math.abs(cos[k * half + p] - Math.cos(ang)) <= TOL && Math.abs(sin[k * half + p] - Math.sin(ang)) <= TOL, `token ${k} pair ${p}`);
        p++;
      }));
    }
  };
  const int = (i) => i;
  // Wan: t 44, h 42, w 42 channels at θ 10⁴
  check(fx('diffusion/wan-t2v-class-defaults.json'), [2, 3, 4], {}, [int, int, int], [freqs(1e4, 44), freqs(1e4, 42), freqs(1e4, 42)]);
  // Cosmos video at 12 fps: time ids i·24/12 = 2i, t base 10⁴·2^(44/42)
  check(fx('diffusion/cosmos-class-defaults.json'), [3, 2, 2], { fps: 12 }, [(i) => 2 * i, int, int], [freqs(1e4 * 2 ** (44 / 42), 44), freqs(1e4, 42), freqs(1e4, 42)]);
  // DINOv3 (2-D): centres 2(i + ½)/n − 1, angle 2π·x·1/100^(4k/64)
  const dino = Array.from({ length: 16 }, (_, k) => 1 / 100 ** ((4 * k) / 64)), centre = (i, n) => 2 * ((i + 0.5) / n) - 1;
  check(fx('vision/dinov3-vitb16-class-defaults.json'), [3, 5], {}, [centre, centre], [dino, dino], 2 * Math.PI);
  assert.throws(() => pe.ropeAxesTables(fx('diffusion/wan-t2v-class-defaults.json'), { grid: [1024, 1024, 2] }), /^PosencError: grid: at most 2\^20 tokens/);
  assert.throws(() => pe.ropeAxesTables(fx('diffusion/wan-t2v-class-defaults.json'), {}), /^PosencError: grid: required/);
});
