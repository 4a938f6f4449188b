// Every verbatim config.json in tests/fixtures/configs (sources in SOURCES.md beside them) is read without error,
// and its key numbers match the file's own values through closed forms computed here.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import init from 'posenc';

const pe = await init();
const dir = new URL('../fixtures/configs/', import.meta.url);
const files = readdirSync(dir).filter((f) => f.endsWith('.json'));
const sources = readFileSync(new URL('SOURCES.md', dir), 'utf8');

test('the fixture set: every file has its source row', () => {
  assert.ok(files.length >= 12, `${files.length} fixtures`);
  for (const f of [...files, 'not-rope/gpt2.json']) assert.ok(sources.includes(`| ${f} |`), `${f} is listed in SOURCES.md`);
});

for (const f of files) {
  test(`${f}: read as text; rope_type, head_dim, rotary_dim, theta and inv_freq from the file's values`, () => {
    const text = readFileSync(new URL(f, dir), 'utf8');
    const c = JSON.parse(text);
    const r = pe.ropeFromConfig(text);
    const head = c.head_dim ?? Math.floor(c.hidden_size / c.num_attention_heads);
    assert.equal(r.head_dim, head);
    assert.equal(r.rotary_dim, head);
    assert.equal(r.rope_theta, c.rope_theta);
    assert.equal(r.max_position_embeddings, c.max_position_embeddings);
    assert.equal(r.layers, null);
    assert.deepEqual(Object.keys(r.layer_types), ['full_attention']);
    const d = r.rotary_dim, b = c.rope_theta;
    const base = Array.from({ length: d / 2 }, (_, i) => b ** (-(2 * i) / d));
    let want = base;
    if (c.rope_scaling) {
      const s = c.rope_scaling;
      assert.equal(r.rope_type, s.rope_type);
      const lo = s.original_max_position_embeddings / s.low_freq_factor, hi = s.original_max_position_embeddings / s.high_freq_factor;
      want = base.map((th) => {
        const wl = (2 * Math.PI) / th;
        if (wl < hi) return th;
        if (wl > lo) return th / s.factor;
        const sm = (s.original_max_position_embeddings / wl - s.low_freq_factor) / (s.high_freq_factor - s.low_freq_factor);
        return (1 - sm) * (th / s.factor) + sm * th;
      });
      assert.deepEqual([r.llama3_bands.high_freq_wavelen, r.llama3_bands.low_freq_wavelen], [hi, lo]);
    } else {
      assert.equal(r.rope_type, 'default');
    }
    for (let i = 0; i < d / 2; i++) assert.ok(Math.abs(r.inv_freq[i] - want[i]) <= 1e-12 * want[i], `inv_freq[${i}]`);
    assert.equal(r.attention_scaling, 1);
  });
}

test('not-rope/gpt2.json: a model without RoPE is an error naming model_type, not an invented RoPE', () => {
  const text = readFileSync(new URL('not-rope/gpt2.json', dir), 'utf8');
  assert.throws(() => pe.ropeFromConfig(text), (e) => e.name === 'PosencError' && /^model_type: 'gpt2' uses learned absolute positions, not RoPE/.test(e.message));
});
