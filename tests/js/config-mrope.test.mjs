// pe.ropeFromConfig and pe.mropePositionIds on multimodal configs: M-RoPE sections (Qwen2-VL / 2.5-VL / 3-VL, legacy and
// text_config formats), the position-id builder against a transcription of HF get_rope_index, and the vision tower's
// 2-D axial RoPE (Pixtral, the Qwen-VL vision transformer). Expected numbers are closed forms computed here.
import test from 'node:test';
import assert from 'node:assert/strict';
import init from 'posenc';
import { REL, badConfig, close, theta } from './config-helpers.mjs';

const pe = await init();
const bad = (cfg, re, opts) => badConfig(pe, cfg, re, opts);

// Qwen/Qwen2-VL-7B-Instruct (legacy rope_scaling "mrope"), Qwen/Qwen2.5-VL-7B-Instruct, Qwen/Qwen3-VL-8B-Instruct (text_config)
const QWEN2_VL = { model_type: 'qwen2_vl', hidden_size: 3584, num_attention_heads: 28, num_hidden_layers: 28, max_position_embeddings: 32768,
  rope_theta: 1000000.0, rope_scaling: { type: 'mrope', mrope_section: [16, 24, 24] }, vision_start_token_id: 151652,
  vision_end_token_id: 151653, image_token_id: 151655, video_token_id: 151656, vision_config: { spatial_merge_size: 2, temporal_patch_size: 2 } };
const QWEN25_VL = { ...QWEN2_VL, model_type: 'qwen2_5_vl', max_position_embeddings: 128000, vision_config: { spatial_merge_size: 2, tokens_per_second: 2 } };
const QWEN3_VL = { model_type: 'qwen3_vl', image_token_id: 151655, video_token_id: 151656, vision_start_token_id: 151652,
  text_config: { model_type: 'qwen3_vl_text', head_dim: 128, hidden_size: 4096, num_attention_heads: 32, num_hidden_layers: 36,
    max_position_embeddings: 262144, rope_theta: 5000000, rope_scaling: { mrope_interleaved: true, mrope_section: [24, 20, 20], rope_type: 'default' } },
  vision_config: { spatial_merge_size: 2 } };

test('M-RoPE configs: sections and interleaving read from legacy and text_config formats', () => {
  const a = pe.ropeFromConfig(QWEN2_VL), c = pe.ropeFromConfig(QWEN3_VL);
  assert.deepEqual([a.rope_type, a.mrope_section, a.mrope_interleaved], ['default', [16, 24, 24], false]);
  assert.deepEqual([c.mrope_section, c.mrope_interleaved, c.rotary_dim], [[24, 20, 20], true, 128]);
  bad({ ...QWEN2_VL, rope_scaling: { type: 'mrope', mrope_section: [16, 24, 20] } }, /^rope_scaling\.mrope_section: must sum to rotary_dim\/2 = 64 \(got 60\)/);
  // tables: text tokens (t = h = w) are plain RoPE in both layouts
  for (const r of [a, c]) {
    const p = [5, 9];
    const m = pe.mropeTables({ rotary_dim: r.rotary_dim, rope_theta: r.rope_theta, mrope_section: r.mrope_section, mrope_interleaved: r.mrope_interleaved, positions: [p, p, p] });
    assert.deepEqual(m.cos, pe.ropeTables({ rotary_dim: r.rotary_dim, rope_theta: r.rope_theta, positions: p }).cos);
  }
});

/** HF get_rope_index (Qwen2-VL / 2.5-VL / 3-VL), transcribed from the reference loop for one unpadded sequence. */
function refRopeIndex(ids, images, videos, seconds, { tps = null, split = false } = {}) {
  const VS = 151652, IM = 151655, VI = 151656, m = 2;
  if (split) videos = videos.flatMap(([t, h, w]) => Array.from({ length: t }, () => [1, h, w]));
  const secs = split ? [] : seconds;
  const rows = [[], [], []];
  let st = 0, ii = 0, vi = 0;
  const last = () => Math.max(...rows[0], ...rows[1], ...rows[2]);
  const nBlocks = ids.filter((t, k) => k > 0 && ids[k - 1] === VS && (t === IM || t === VI)).length;
  for (let b = 0; b < nBlocks; b++) {
    let ed = st;
    while (!(ids[ed] === IM || ids[ed] === VI)) ed++;
    const video = ids[ed] === VI;
    const [t, h, w] = video ? videos[vi] : images[ii];
    const spg = video ? (secs[vi] ?? 1) : 0;
    video ? vi++ : ii++;
    const [gt, gh, gw] = [t, h / m, w / m];
    const stIdx = rows[0].length ? last() + 1 : 0;
    for (let k = 0; k < ed - st; k++) for (const r of rows) r.push(stIdx + k);
    const base = ed - st + stIdx;
    for (let a = 0; a < gt; a++) for (let y = 0; y < gh; y++) for (let x = 0; x < gw; x++) {
      rows[0].push(base + (tps === null ? a : Math.trunc(a * Math.trunc(spg) * tps)));
      rows[1].push(base + y);
      rows[2].push(base + x);
    }
    st = ed + gt * gh * gw;
  }
  const stIdx = rows[0].length ? last() + 1 : 0;
  for (let k = 0; k < ids.length - st; k++) for (const r of rows) r.push(stIdx + k);
  return { position_ids: Int32Array.from([...rows[0], ...rows[1], ...rows[2]]), rope_deltas: last() + 1 - ids.length };
}
const block = (pad, n) => [151652, ...Array(n).fill(pad), 151653];
const text = (n) => Array.from({ length: n }, (_, k) => 1000 + k);

test('mropePositionIds = get_rope_index on images and videos of several sizes (Qwen2-VL, Qwen2.5-VL, Qwen3-VL)', () => {
  const grids = [[1, 2, 2], [1, 4, 6], [1, 28, 42], [1, 16, 2]];
  for (const g of grids) {
    const ids = [...text(3), ...block(151655, (g[1] * g[2]) / 4), ...text(4)];
    const want = refRopeIndex(ids, [g], [], []);
    for (const cfg of [QWEN2_VL, QWEN25_VL, QWEN3_VL]) assert.deepEqual(pe.mropePositionIds({ config: cfg, input_ids: ids, image_grid_thw: [g] }), want, JSON.stringify(g));
  }
  // two images and two videos interleaved with text
  const vids = [[4, 4, 4], [2, 2, 6]];
  const ids = [...text(2), ...block(151655, 4), ...text(1), ...block(151656, 16), ...text(3), ...block(151655, 6), ...block(151656, 6), ...text(2)];
  const imgs = [[1, 4, 4], [1, 4, 6]];
  assert.deepEqual(pe.mropePositionIds({ config: QWEN2_VL, input_ids: ids, image_grid_thw: imgs, video_grid_thw: vids }), refRopeIndex(ids, imgs, vids, []));
  for (const secs of [[1.0, 2.0], [0.5, 3.7]]) {
    assert.deepEqual(pe.mropePositionIds({ config: QWEN25_VL, input_ids: ids, image_grid_thw: imgs, video_grid_thw: vids, second_per_grid_ts: secs }),
      refRopeIndex(ids, imgs, vids, secs, { tps: 2 }));
  }
  // Qwen3-VL: one block per frame, timestamps as text between frames
  const v3 = [[3, 4, 4]];
  const ids3 = [...text(2), ...[0, 1, 2].flatMap((f) => [...text(2), ...block(151656, 4)]), ...text(1)];
  const got = pe.mropePositionIds({ config: QWEN3_VL, input_ids: ids3, video_grid_thw: v3 });
  assert.deepEqual(got, refRopeIndex(ids3, [], v3, [], { split: true }));
  assert.equal(got.rope_deltas, got.position_ids.slice(0, ids3.length).reduce((a, b) => Math.max(a, b)) + 1 - ids3.length);
  assert.throws(() => pe.mropePositionIds({ config: QWEN2_VL, input_ids: ids, image_grid_thw: imgs }), /PosencError: video_grid_thw: has fewer grids/);
  assert.throws(() => pe.mropePositionIds({ config: { hidden_size: 64, num_attention_heads: 1 }, input_ids: [1] }), /PosencError: config\.image_token_id: required/);
});

test('vision 2-D axial RoPE from the config: Pixtral (odd frequencies on w) and the Qwen-VL vision tower', () => {
  // mistral-community/pixtral-12b: Llava with a Pixtral vision tower
  const r = pe.ropeFromConfig({ model_type: 'llava',
    text_config: { model_type: 'mistral', head_dim: 128, hidden_size: 5120, num_attention_heads: 32, max_position_embeddings: 1024000, rope_theta: 1000000000.0 },
    vision_config: { model_type: 'pixtral', head_dim: 64, hidden_size: 1024, image_size: 1024, num_attention_heads: 16, patch_size: 16, rope_theta: 10000.0 } });
  assert.deepEqual(r.vision_rope, { variant: 'pixtral', rotary_dim: 64, rope_theta: 10000, max_patches_per_side: 64 });
  close(r.inv_freq, theta(1e9, 128), REL, 'text');
  const v = r.vision_rope;
  const { cos, sin } = pe.axial2dTables({ rotary_dim: v.rotary_dim, rope_theta: v.rope_theta, variant: v.variant, grid: [2, 3] });
  for (let p = 0; p < 6; p++) {
    const [h, w] = [Math.floor(p / 3), p % 3];
    for (let i = 0; i < 32; i++) {
      const a = i < 16 ? h * 1e4 ** (-(2 * (2 * i)) / 64) : w * 1e4 ** (-(2 * (2 * (i - 16) + 1)) / 64);
      assert.ok(Math.abs(cos[p * 32 + i] - Math.cos(a)) <= 2 ** -23 && Math.abs(sin[p * 32 + i] - Math.sin(a)) <= 2 ** -23, `p=${p} i=${i}`);
    }
  }
  // v5 (Devstral 2, Mistral 3): the vision base inside vision_config.rope_parameters
  const v5 = { model_type: 'mistral3', text_config: { model_type: 'ministral3', head_dim: 128, hidden_size: 5120, num_attention_heads: 32, rope_parameters: { rope_type: 'default', rope_theta: 1e6 } },
    vision_config: { model_type: 'pixtral', head_dim: 64, image_size: 1540, patch_size: 14, rope_parameters: { rope_theta: 20000.0, rope_type: 'default' } } };
  assert.deepEqual(pe.ropeFromConfig(v5).vision_rope, { variant: 'pixtral', rotary_dim: 64, rope_theta: 20000, max_patches_per_side: 110 });
  bad({ ...v5, vision_config: { ...v5.vision_config, rope_parameters: { rope_theta: 'x' } } }, /^vision_config\.rope_parameters\.rope_theta: must be a finite number/);
  assert.deepEqual(pe.ropeFromConfig({ ...QWEN25_VL, vision_config: { ...QWEN25_VL.vision_config, hidden_size: 1280, num_heads: 16 } }).vision_rope,
    { variant: 'qwen2_vl', rotary_dim: 80, rope_theta: 10000, max_patches_per_side: null });
});
