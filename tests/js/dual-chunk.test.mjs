// Dual chunk attention (Qwen2.5-1M): ropeFromConfig reads dual_chunk_attention_config, pe.dualChunkDistances gives the
// distances vLLM's DualChunkRotaryEmbedding encodes, and the dual-chunk figure's takeaway holds on its numbers.
// Expected values: a transcription of vLLM's caches and chunk selection (vllm-project/vllm@07b13497
// rotary_embedding/dual_chunk_rope.py, @006e0acb attention/backends/dual_chunk_flash_attn.py) and closed forms.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import init from 'posenc';
import { describeFigure } from 'posenc/figures';
import dualChunk from '../../web/src/figures/defs/dual-chunk.js';

const pe = await init();
const fx = (f) => readFileSync(new URL(`../fixtures/configs/${f}`, import.meta.url), 'utf8');
const EXACT = 0;   // integer distances: exact

/** vLLM, transcribed: q_t, qc_t = clamp(arange(L) + L, max=chunk_size), k_t = arange % L; intra / succ / inter by chunk start. */
function vllm(chunk_size, local_size, i, j) {
  const L = chunk_size - local_size;
  const q_t = (p) => p % L, qc_t = (p) => Math.min((p % L) + L, chunk_size), k_t = (p) => p % L;
  const prev = Math.floor(i / L) * L;   // prev_chunk_end_pos of the query's block
  if (j > i) return null;
  if (j >= prev) return ['intra', q_t(i) - k_t(j)];
  if (j >= prev - L) return ['succ', qc_t(i) - k_t(j)];
  return ['inter', Math.min(2 * L - 1, chunk_size) - k_t(j)];   // cos_sin_qc_cache[chunk_len - 1]
}

test('ropeFromConfig reads Qwen2.5-1M\'s dual_chunk_attention_config and says what it does', () => {
  const r = pe.ropeFromConfig(fx('long-context/Qwen2.5-7B-Instruct-1M-assembled.json'));
  assert.deepEqual(r.dual_chunk, { chunk_size: 262144, local_size: 8192, original_max_position_embeddings: 262144, chunk_len: 262144 - 8192,
    source: 'dual_chunk_attention_config' });
  assert.equal(r.rope_theta, 1e7);
  assert.ok(r.warnings.some((w) => /^dual_chunk_attention_config: dual chunk attention .* at most chunk_size = 262144 .* not a native context/.test(w)), r.warnings.join('\n'));
  assert.equal(pe.ropeFromConfig(fx('Qwen2.5-7B.json')).dual_chunk, null);
  const base = JSON.parse(fx('Qwen2.5-7B.json'));
  for (const [d, re] of [[{ chunk_size: 8, local_size: 8 }, /^dual_chunk_attention_config\.local_size: must be an integer in \[0, chunk_size\) = \[0, 8\)/],
    [{ local_size: 2 }, /^dual_chunk_attention_config\.chunk_size: must be a positive integer/], [7, /^dual_chunk_attention_config: must be an object/]]) {
    assert.throws(() => pe.ropeFromConfig({ ...base, dual_chunk_attention_config: d }), (e) => e.name === 'PosencError' && re.test(e.message), String(re));
  }
});

test('dualChunkDistances equals vLLM\'s remapping on every pair (small chunks, all three kinds)', () => {
  for (const [cs, ls] of [[16, 4], [32, 8], [10, 0], [9, 8]]) {
    const n = 70, pos = Array.from({ length: n }, (_, i) => i);
    const m = pe.dualChunkDistances({ chunk_size: cs, local_size: ls, q_positions: pos, k_positions: pos });
    const KIND = { intra: 1, succ: 2, inter: 3 };
    let max = 0;
    for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) {
      const want = vllm(cs, ls, i, j), o = i * n + j;
      if (!want) { assert.equal(m.kind[o], 0, `masked ${i},${j}`); continue; }
      assert.equal(m.kind[o], KIND[want[0]], `kind ${cs}/${ls} ${i},${j}`);
      assert.ok(Math.abs(m.distances[o] - want[1]) <= EXACT, `distance ${cs}/${ls} ${i},${j}: ${m.distances[o]} vs ${want[1]}`);
      if (want[0] === 'intra') assert.equal(m.distances[o], i - j);
      max = Math.max(max, want[1]);
    }
    assert.equal(m.max_distance, max);
    assert.ok(m.max_distance <= cs, 'never beyond chunk_size');
    assert.equal(m.chunk_len, cs - ls);
  }
});

test('Qwen2.5-1M sizes: closed forms at 600000 against keys 550000 (intra), 300000 (successive), 0 (inter)', () => {
  const L = 262144 - 8192;   // 253952; 600000 is in chunk 2 at offset 600000 − 2L = 92096
  const m = pe.dualChunkDistances({ chunk_size: 262144, local_size: 8192, q_positions: [600000], k_positions: [550000, 300000, 0] });
  assert.deepEqual(Array.from(m.kind), [1, 2, 3]);
  assert.deepEqual(Array.from(m.distances), [50000, Math.min(92096 + L, 262144) - (300000 - L), Math.min(2 * L - 1, 262144) - 0]);
  assert.deepEqual(Array.from(m.distances), [50000, 216096, 262144]);
});

test('dualChunkDistances: bad input names the parameter and the rule', () => {
  const bad = (o, re) => assert.throws(() => pe.dualChunkDistances(o), (e) => e.name === 'PosencError' && re.test(e.message), String(re));
  const ok = { chunk_size: 16, local_size: 4, q_positions: [3], k_positions: [1] };
  bad({ ...ok, local_size: 16 }, /^local_size: must be less than chunk_size = 16/);
  bad({ ...ok, q_positions: [1.5] }, /^q_positions\[0\]: must be an integer in \[0, 2\^40\]/);
  bad({ ...ok, k_positions: [-1] }, /^k_positions\[0\]: must be an integer in \[0, 2\^40\]/);
  bad({ ...ok, chunk_size: 0 }, /^chunk_size: must be an integer in \[1, /);
  bad({ ...ok, q_positions: new Float64Array(5000), k_positions: new Float64Array(5000) }, /^q_positions: q_positions\.length · k_positions\.length must be at most 16777216/);
});

test('figure dual-chunk: its takeaway on its numbers — no encoded distance beyond chunk_size, the decay read there', () => {
  assert.ok(describeFigure('dual-chunk').takeaway.en.startsWith('No query–key distance ever exceeds chunk_size'));
  for (const params of [{}, ...describeFigure('dual-chunk').tries.map((t) => t.params)]) {
    const p = { ...Object.fromEntries(describeFigure('dual-chunk').params.map((x) => [x.name, x.default])), ...params };
    const r = dualChunk.compute(pe, p), out = dualChunk.render(r);
    const finite = Array.from(out.map.data).filter(Number.isFinite);
    assert.ok(Math.max(...finite) <= p.chunk_size, `map max ${Math.max(...finite)} ≤ ${p.chunk_size}`);
    assert.ok(p.n - 1 > p.chunk_size, 'the true distances go past chunk_size');
    // intra-chunk cells keep i − j; masked cells grey
    const L = p.chunk_size - p.local_size;
    for (let i = 0; i < p.n; i++) for (let j = 0; j < p.n; j++) {
      const v = out.map.data[i * p.n + j];
      if (j > i) assert.ok(Number.isNaN(v));
      else if (Math.floor(i / L) === Math.floor(j / L)) assert.equal(v, i - j);
    }
    // the decay panel reads Su's bound (ropeDecayBound) at the encoded distance; plain RoPE at the true one
    const bound = pe.ropeDecayBound({ rotary_dim: 128, rope_theta: p.rope_theta, count: p.n });
    const dca = out.decay.series[1].y, plain = out.decay.series[0].y, eff = out.dist.series[1].y;
    for (let k = 0; k < p.n; k++) {
      assert.equal(eff[k], vllm(p.chunk_size, p.local_size, p.n - 1, p.n - 1 - k)[1]);
      assert.equal(dca[k], bound[eff[k]]);
      assert.equal(plain[k], bound[k]);
    }
    assert.equal(out.readouts.find((x) => x.id === 'max').value, Math.max(...finite));
  }
  // the try's sentence: chunk_size 16, local_size 4 → chunks of 12, largest distance 16
  const t = dualChunk.compute(pe, { chunk_size: 16, local_size: 4, n: 128, rope_theta: 100 });
  assert.deepEqual([t.chunk_len, t.max], [12, 16]);
});
