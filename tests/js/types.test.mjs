// The published TypeScript typings (dist/*.d.ts) compile for a strict TypeScript consumer (tests/types/consumer.ts),
// including a deliberate misuse that must be rejected (@ts-expect-error).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

test('a strict TypeScript consumer type-checks against the package typings', () => {
  const root = fileURLToPath(new URL('../../', import.meta.url));
  const r = spawnSync(`${root}node_modules/.bin/tsc`, ['-p', 'tests/types/tsconfig.json'], { cwd: root, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stdout + r.stderr);
});
