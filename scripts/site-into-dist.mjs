// Copies the built explainer (build/site) into the package as dist/site (served by `npx posenc site`), without
// shipping a file twice: a site asset with the same bytes as a file of dist/ (the .wasm builds, figures-standalone.js)
// is left out and named in dist/site/links.json ({ "assets/<hashed name>": "../<file in dist>" }), which the server
// (web/src/cli-site.ts) follows.
import { createHash } from 'node:crypto';
import { cpSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname, dist = join(root, 'dist'), site = join(dist, 'site');
const hash = (p) => createHash('sha256').update(readFileSync(p)).digest('hex');
rmSync(site, { recursive: true, force: true });
cpSync(join(root, 'build/site'), site, { recursive: true });
const own = new Map(readdirSync(dist).filter((f) => statSync(join(dist, f)).isFile()).map((f) => [hash(join(dist, f)), f]));
const links = {};
for (const f of readdirSync(join(site, 'assets'))) {
  const same = own.get(hash(join(site, 'assets', f)));
  if (same) { links[`assets/${f}`] = `../${same}`; rmSync(join(site, 'assets', f)); }
}
writeFileSync(join(site, 'links.json'), `${JSON.stringify(links, null, 2)}\n`);
console.log(`[build] dist/site: ${Object.keys(links).length} assets shared with dist/ (${Object.values(links).join(', ')})`);
