// The forward pass against the models' own reference code:
//   - stories260K (.gguf) against llama.cpp's own tokenizer and forward pass (tests/llamacpp/logits.cpp, linked against
//     llama.cpp 6c8dcaa by scripts/llamacpp.sh as the engine tests build it): the same token ids, and every position's
//     loss within NLL_LLAMACPP_TOL (both float32, summed in different orders; llama.cpp's KV cache set to F32, its
//     default being F16); also the same file re-encoded as Q8_0 here (ggml's block_q8_0) and run by both;
//   - TinyStories-656K written as the .gguf llama.cpp's converter makes (tests/js/hf-to-gguf.mjs: q/k rows permuted to
//     consecutive pairs) and run by llama.cpp: its losses = posenc's from the safetensors, within NLL_LLAMACPP_TOL;
//   - TinyStories-656K (safetensors) against tests/reference/llama_hf.py, a float64 numpy forward written from
//     transformers' LlamaForCausalLM and modeling_rope_utils (not from posenc), under default, linear, dynamic and yarn
//     RoPE past the trained length: every loss within NLL_TOL.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gguf } from '@huggingface/gguf';
import init from 'posenc';
import { DIR_656K, GGUF_260K, SOURCE_656K, stories, stream } from './real-models.mjs';
import { toHalf } from './gguf-writer.mjs';
import { hfToGguf } from './hf-to-gguf.mjs';

const NLL_LLAMACPP_TOL = 2e-3, Q8_TOL = 0.3, Q8_MEAN_TOL = 0.01, NLL_TOL = 1e-3, NLL_MEAN_TOL = 1e-4;
const repo = fileURLToPath(new URL('../../', import.meta.url));
const pe = await init();
const tmp = mkdtempSync(join(tmpdir(), 'posenc-model-ref-'));
process.on('exit', () => rmSync(tmp, { recursive: true, force: true }));

function logitsHarness() {
  const r = spawnSync('bash', [join(repo, 'scripts/llamacpp.sh'), 'logits'], { encoding: 'utf8', timeout: 40 * 60 * 1000 });
  if (r.status !== 0) throw new Error(`scripts/llamacpp.sh logits failed (${r.status ?? r.signal}):\n${r.stderr.slice(-4000)}`);
  return r.stdout.trim().split('\n').pop();
}
const HARNESS = logitsHarness();

function llamacpp(file, text, n) {
  const tf = join(tmp, 'text.txt'), out = join(tmp, 'logits.f32');
  writeFileSync(tf, text);
  const r = spawnSync(HARNESS, [file, tf, out, String(n)], { encoding: 'utf8', maxBuffer: 64 << 20 });
  if (r.status !== 0) throw new Error(`logits harness failed: ${r.stderr}`);
  const { n_vocab, tokens } = JSON.parse(r.stdout);
  const b = readFileSync(out);
  return { n_vocab, tokens, logits: new Float32Array(b.buffer, b.byteOffset, b.length / 4) };
}

// Q8_0 blocks (34 bytes: float16 d, 32 int8 q) → F32 bytes of d·q, as ggml-quants.c dequantize_row_q8_0.
function dequant(q) {
  const out = new Float32Array(q.length / 34 * 32);
  const half = (h) => { const e = (h >> 10) & 31, m = h & 1023, s = h >> 15 ? -1 : 1; return s * (e ? 2 ** (e - 15) * (1 + m / 1024) : 2 ** -14 * (m / 1024)); };
  for (let b = 0; b < q.length / 34; b++) {
    const d = Math.fround(half(q[34 * b] | q[34 * b + 1] << 8));
    for (let k = 0; k < 32; k++) out[32 * b + k] = d * ((q[34 * b + 2 + k] << 24) >> 24);
  }
  return new Uint8Array(out.buffer);
}

// posenc's logits at every position: its loss of every token of the vocabulary is logsumexp − logit, so logits are
// recovered (up to the per-row constant) by evaluating each candidate; cheaper: compare −log softmax of the target only.
function logSoftmax(row) {
  let m = -Infinity;
  for (const x of row) m = Math.max(m, x);
  let s = 0;
  for (const x of row) s += Math.exp(x - m);
  return (k) => row[k] - m - Math.log(s);
}

async function compareWithLlamacpp(file, text, n) {
  const ref = llamacpp(file, text, n);
  const lm = await pe.loadModel(file);
  const ids = lm.encode(text).subarray(0, n);
  assert.deepEqual(Array.from(ids), ref.tokens, 'token ids: posenc\'s SentencePiece tokenizer = llama_tokenize');
  const ev = await lm.evaluate({ ids });
  let worst = 0, sum = 0, lossRef = 0, loss = 0;
  for (let t = 0; t + 1 < ids.length; t++) {
    const lp = logSoftmax(ref.logits.subarray(t * ref.n_vocab, (t + 1) * ref.n_vocab));
    const d = Math.abs(-lp(ids[t + 1]) - ev.nll[t]);
    worst = Math.max(worst, d);
    sum += d;
    lossRef -= lp(ids[t + 1]);
    loss += ev.nll[t];
  }
  lm.free();
  const count = ids.length - 1;
  return { worst, mean: sum / count, loss: loss / count, lossRef: lossRef / count };
}

test('stories260K: token ids and every position\'s loss equal llama.cpp\'s own (F32 file, 700 tokens)', async () => {
  const text = stories().slice(0, 6).join('\n\n');
  const { worst } = await compareWithLlamacpp(GGUF_260K, text, 700);
  assert.ok(worst <= NLL_LLAMACPP_TOL, `largest |Δ nll| ${worst}`);
});

test('stories260K re-encoded as Q8_0 (ggml block_q8_0, written here): posenc and llama.cpp read it alike', async () => {
  const bytes = readFileSync(GGUF_260K);
  const { typedMetadata, tensorInfos, tensorDataOffset } = await gguf(GGUF_260K, { allowLocalFile: true, typedMetadata: true });
  // rewrite: 2-D tensors with rows of whole 32-blocks become Q8_0 (d = max|x|/127, q = round(x/d)), others stay F32;
  // the key-values as @huggingface/gguf read them, with their types
  const { ggufFile } = await import('./gguf-writer.mjs');
  const kv = Object.entries(typedMetadata).filter(([k]) => !['version', 'tensor_count', 'kv_count'].includes(k))
    .map(([k, v]) => [k, v.type, v.subType !== undefined ? [v.subType, v.value] : v.value]);
  const tensors = tensorInfos.map((t) => {
    const count = t.shape.reduce((a, b) => a * Number(b), 1);
    const at = bytes.byteOffset + Number(tensorDataOffset + t.offset);
    const src = new Float32Array(bytes.buffer.slice(at, at + 4 * count));
    const dims = t.shape.map(Number);
    if (dims.length < 2 || dims[0] % 32) return { name: t.name, dims, type: 0, data: new Uint8Array(src.buffer) };
    const out = new Uint8Array(count / 32 * 34);
    for (let b = 0; b < count / 32; b++) {
      let amax = 0;
      for (let k = 0; k < 32; k++) amax = Math.max(amax, Math.abs(src[32 * b + k]));
      const d = amax / 127, h = toHalf(d);
      out[34 * b] = h & 255; out[34 * b + 1] = h >> 8;
      for (let k = 0; k < 32; k++) out[34 * b + 2 + k] = (d ? Math.round(src[32 * b + k] / d) : 0) & 255;
    }
    return { name: t.name, dims, type: 8, data: out };
  });
  const file = join(tmp, 'stories260K-q8_0.gguf');
  writeFileSync(file, ggufFile({ kv, tensors }));
  const text = stories().slice(10, 14).join('\n\n');
  const c = await compareWithLlamacpp(file, text, 500);
  // llama.cpp's CPU matmul quantizes the activations to Q8_0 too (ggml-cpu: vec_dot_type of Q8_0), posenc does not:
  // the two agree on average, each loss within Q8_TOL
  assert.ok(c.worst <= Q8_TOL && Math.abs(c.loss - c.lossRef) <= Q8_MEAN_TOL, JSON.stringify(c));
  // and posenc's reading of the Q8_0 file is exactly ggml's d·q: the same model written as F32 with those values
  const f32 = join(tmp, 'stories260K-dequant.gguf');
  writeFileSync(f32, ggufFile({ kv, tensors: tensors.map((t) => (t.type !== 8 ? t : { ...t, type: 0, data: dequant(t.data) })) }));
  const [a, b] = [await pe.loadModel(file), await pe.loadModel(f32)];
  const ids = a.encode(text).subarray(0, 300);
  const [ea, eb] = [await a.evaluate({ ids }), await b.evaluate({ ids })];
  assert.deepEqual(ea.nll, eb.nll);
  a.free(); b.free();
});

test('TinyStories-656K as llama.cpp runs it (converted to .gguf): every loss = posenc\'s from the safetensors', async () => {
  const file = join(tmp, 'tinystories-656k.gguf');
  writeFileSync(file, hfToGguf(DIR_656K));
  const text = stories().slice(3, 9).join('\n\n');
  const ref = llamacpp(file, text, 700);
  const lm = await pe.loadModel(SOURCE_656K);
  const ids = Int32Array.from(ref.tokens);
  const ev = await lm.evaluate({ ids });
  let worst = 0;
  for (let t = 0; t + 1 < ids.length; t++) {
    const lp = logSoftmax(ref.logits.subarray(t * ref.n_vocab, (t + 1) * ref.n_vocab));
    worst = Math.max(worst, Math.abs(-lp(ids[t + 1]) - ev.nll[t]));
  }
  assert.ok(worst <= NLL_LLAMACPP_TOL, `largest |Δ nll| ${worst} over ${ids.length} tokens`);
  // and posenc reads the converted file as it reads the safetensors (the permutation undone by its pairing)
  const g = await pe.loadModel(file);
  const eg = await g.evaluate({ ids });
  for (let t = 0; t + 1 < ids.length; t++) assert.ok(Math.abs(eg.nll[t] - ev.nll[t]) <= 1e-4, `token ${t}: ${eg.nll[t]} vs ${ev.nll[t]}`);
  lm.free(); g.free();
});

test('TinyStories-656K: every loss equals the float64 transformers-semantics reference, default and scaled RoPE past 512', async () => {
  const lm = await pe.loadModel(SOURCE_656K);
  const ids = stream(lm, 700, { eos: true });
  for (const rope of [null, { rope_type: 'linear', factor: 2 }, { rope_type: 'dynamic', factor: 2 }, { rope_type: 'yarn', factor: 4 }]) {
    const r = spawnSync('/usr/bin/python3', [join(repo, 'tests/reference/llama_hf.py'), join(DIR_656K, 'config.json'), join(DIR_656K, 'model.safetensors')],
      { input: JSON.stringify({ ids: Array.from(ids), rope_scaling: rope }), encoding: 'utf8', maxBuffer: 64 << 20 });
    assert.equal(r.status, 0, r.stderr);
    const want = JSON.parse(r.stdout).nll;
    const got = (await lm.evaluate({ ids, rope })).nll;
    let worst = 0, sum = 0;
    for (let t = 0; t < want.length; t++) { const d = Math.abs(got[t] - want[t]); worst = Math.max(worst, d); sum += d; }
    assert.ok(worst <= NLL_TOL && sum / want.length <= NLL_MEAN_TOL, `${JSON.stringify(rope)}: max ${worst}, mean ${sum / want.length}`);
  }
  lm.free();
});
