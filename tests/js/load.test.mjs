// Loading in Node: the compiled module is shared (wasmModule() twice → one module; init({ module }) uses it without
// reading the file), bad `module`/`wasmUrl` options are PosencErrors naming the option, and a refused read says what
// to change — Deno's permission error (its exact shape: name NotCapable, "Requires read access …") names --allow-read.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { init, wasmModule, readFailure, PosencError } from '../../dist/node.js';

const URL_ = 'file:///home/me/blog/node_modules/posenc/dist/posenc-simd.wasm';

test('wasmModule() compiles once; init({ module }) instantiates that module', async () => {
  const a = await wasmModule(), b = await wasmModule();
  assert.ok(a instanceof WebAssembly.Module);
  assert.equal(a, b, 'the same compiled module both times');
  const pe = await init({ module: a });
  // closed form: cos(1 · 10000^(−0/4)) = cos(1) for position 1, pair 0
  assert.ok(Math.abs(pe.ropeTables({ rotary_dim: 8, positions: 2 }).cos[4] - Math.cos(1)) <= 2 ** -23);
});

test('init({ module }) and wasmUrl: a wrong value is a PosencError naming the option', async () => {
  await assert.rejects(init({ module: {} }), (e) => e instanceof PosencError && e.param === 'module' && /WebAssembly\.Module/.test(e.message));
  await assert.rejects(wasmModule({ wasmUrl: 42 }), (e) => e instanceof PosencError && e.param === 'wasmUrl' && /got 42/.test(e.message));
  await assert.rejects(init({ wasmUrl: 'file:///nonexistent/posenc-simd.wasm' }), (e) => e instanceof PosencError && /could not read file:\/\/\/nonexistent\/posenc-simd\.wasm.*reinstall posenc/.test(e.message));
});

test('init and wasmModule: an unknown option or a non-object is a PosencError (with the nearest option name); init() still works', async () => {
  await assert.rejects(init({ thread: true }), (e) => e instanceof PosencError &&
    e.message === "init: unknown option 'thread' (did you mean 'threads'?); options: simd, wasmUrl, wasmBinary, module, gpu, webgpu, threads, threadsUrl");
  await assert.rejects(init({ wasmURL: 'x.wasm' }), (e) => e instanceof PosencError && /^init: unknown option 'wasmURL' \(did you mean 'wasmUrl'\?\)/.test(e.message));
  await assert.rejects(init({ zzzzzzzz: 1 }), (e) => e instanceof PosencError && /^init: unknown option 'zzzzzzzz'; options: /.test(e.message));
  for (const bad of [null, 5, 'threads', [true]]) {
    await assert.rejects(init(bad), (e) => e instanceof PosencError && /^init: options must be an object of named options \(got /.test(e.message), String(bad));
  }
  await assert.rejects(wasmModule({ threads: true }), (e) => e instanceof PosencError &&
    e.message === "wasmModule: unknown option 'threads'; options: simd, wasmUrl, wasmBinary, module");
  await assert.rejects(wasmModule(7), (e) => e instanceof PosencError && /^wasmModule: options must be an object of named options \(got 7\)/.test(e.message));
  assert.equal((await init()).ropeTables({ rotary_dim: 4, positions: 2 }).cos.length, 4);
});

test("a read refused by Deno's permissions names the flag to grant, not a broken install", () => {
  const deno = Object.assign(new Error(`Requires read access to "/home/me/blog/node_modules/posenc/dist/posenc-simd.wasm", run again with the --allow-read flag`), { name: 'NotCapable' });
  const text = readFailure(URL_, deno);
  assert.match(text, /^wasm: Deno refused to read file:\/\/\/home\/me\/blog\/node_modules\/posenc\/dist\/posenc-simd\.wasm/);
  assert.match(text, /deno run --allow-read=\/home\/me\/blog\/node_modules\/posenc\/dist\//);
  assert.doesNotMatch(text, /incomplete|reinstall/);
  const eacces = Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' });
  assert.match(readFailure(URL_, eacces), /no permission to read .* let this process read \/home\/me\/blog\/node_modules\/posenc\/dist\//);
  const enoent = Object.assign(new Error('ENOENT: no such file'), { code: 'ENOENT' });
  assert.match(readFailure(URL_, enoent), /the installed package is incomplete; reinstall posenc/);
});
