// pe.ropeFromGGUF on a 10 GB .gguf picked through a file input in headless Chromium: the file is sparse (a real
// header with a 150k-token tokenizer, then `truncate -s 10G`), and the page counts the bytes Blob.slice() hands out.
// The header and the rope tensor must cost < 4 MB of the file (asserted); the time is printed, not asserted.
import assert from 'node:assert/strict';
import { mkdtempSync, openSync, closeSync, ftruncateSync, writeSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS } from './browser.mjs';
import { serveStatic } from './figures-server.mjs';
import { T, ggufFile, f32Bytes } from '../js/gguf-writer.mjs';

const root = new URL('../../dist/', import.meta.url);
const SIZE = 10 * 2 ** 30;
let server, base, dir, path, header;

before(async () => {
  ({ server, origin: base } = await serveStatic({ mounts: { '/dist/': fileURLToPath(root) },
    pages: { '/': '<!doctype html><title>gguf</title><input type="file" id="f">' } }));
  // Llama 3.1 8B's RoPE keys, a tokenizer the size of Llama 3's (tokens, scores, types: ~3 MB), rope_freqs and a
  // 10 GB "weights" tensor whose bytes are never written (sparse)
  const n = 128256;
  header = ggufFile({
    kv: [['general.architecture', T.str, 'llama'], ['llama.context_length', T.u32, 131072], ['llama.embedding_length', T.u32, 4096],
      ['llama.block_count', T.u32, 32], ['llama.attention.head_count', T.u32, 32], ['llama.rope.freq_base', T.f32, 500000],
      ['tokenizer.ggml.tokens', T.arr, [T.str, Array.from({ length: n }, (_, i) => `token${i}`)]],
      ['tokenizer.ggml.token_type', T.arr, [T.i32, new Array(n).fill(1)]], ['tokenizer.ggml.scores', T.arr, [T.f32, new Array(n).fill(0)]]],
    tensors: [{ name: 'rope_freqs.weight', dims: [64], type: 0, data: f32Bytes(Array.from({ length: 64 }, (_, i) => (i < 32 ? 1 : 8))) }],
  });
  dir = mkdtempSync(join(tmpdir(), 'posenc-gguf-e2e-'));
  path = join(dir, 'model-10GB.gguf');
  const fd = openSync(path, 'w');
  writeSync(fd, header);
  ftruncateSync(fd, SIZE);
  closeSync(fd);
});
after(() => { server.close(); rmSync(dir, { recursive: true, force: true }); });

test('ropeFromGGUF reads a 10 GB .gguf from a File in Chromium from its header and rope tensor only (< 4 MB)', async () => {
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
  try {
    const page = await browser.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(`${base}/`);
    await page.evaluate(async () => { window.pe = await (await import('/dist/index.js')).default(); });
    await page.setInputFiles('#f', path);
    const out = await page.evaluate(async () => {
      const file = document.getElementById('f').files[0];
      let sliced = 0;
      const slice = file.slice.bind(file);
      file.slice = (a, b) => { sliced += b - a; return slice(a, b); };
      const t0 = performance.now();
      const r = await window.pe.ropeFromGGUF(file);
      const ms = performance.now() - t0;
      return { ms, sliced, size: file.size, bytes_read: r.gguf.bytes_read, inv: Array.from(r.inv_freq.slice(30, 34)), layout: r.layout };
    });
    assert.deepEqual(errors, []);
    assert.equal(out.size, SIZE);
    assert.equal(out.sliced, out.bytes_read);
    assert.ok(out.sliced < 4e6, `read ${out.sliced} bytes`);
    assert.ok(out.sliced >= header.dataStart, `the header is ${header.dataStart} bytes`);
    assert.equal(out.layout, 'interleaved');
    const inv = (i) => 500000 ** (-2 * i / 128) / (i < 32 ? 1 : 8);
    out.inv.forEach((x, k) => assert.ok(Math.abs(x - inv(30 + k)) <= 1e-13 * inv(30 + k), `inv_freq[${30 + k}]`));
    console.log(`[gguf e2e] 10 GB file: header ${header.dataStart} B, read ${out.sliced} B in ${out.ms.toFixed(1)} ms (Chromium, File.slice)`);
  } finally {
    await browser.close();
  }
});
