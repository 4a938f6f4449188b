// Copies the built explainer (build/site) into the package as dist/site (served by `npx posenc site`), without
// shipping a file twice: a site asset with the same bytes as a file of dist/ (the .wasm builds, figures-standalone.js)
// is left out and named in dist/site/links.json ({ "assets/<hashed name>": "../<file in dist>" }), which the server
// (web/src/cli-site.ts) follows. figures-standalone.js is not in the tarball (package.json "files"): its one copy is the
// string export `standaloneText` of ../widget.js, named "../widget.js#standaloneText". Fonts: an @font-face that lists a woff2 file keeps only that one (the .woff and .ttf
// fallbacks hold the same glyphs for browsers older than any that runs the explainer's wasm SIMD), and the fallback
// files go: KaTeX's 60 font files become 20 (−0.8 MB unpacked, −0.5 MB in the tarball).
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
  if (same) { links[`assets/${f}`] = same === 'figures-standalone.js' ? '../widget.js#standaloneText' : `../${same}`; rmSync(join(site, 'assets', f)); }
}
// `src: url(a.woff2) format("woff2"), url(a.woff) format("woff"), url(a.ttf) format("truetype")` → the woff2 only
const dropped = new Set();
for (const f of readdirSync(join(site, 'assets')).filter((x) => x.endsWith('.css'))) {
  const p = join(site, 'assets', f), css = readFileSync(p, 'utf8');
  const out = css.replace(/src:([^;}]*)/g, (all, list) => {
    const parts = list.split(/,(?=\s*url\()/);
    const woff2 = parts.filter((x) => /\.woff2\)\s*format\(["']woff2["']\)/.test(x));
    if (!woff2.length || woff2.length === parts.length) return all;
    for (const x of parts) if (!woff2.includes(x)) dropped.add(/url\(["']?\.?\/?([^"')]+)/.exec(x)?.[1]);
    return `src:${woff2.join(',')}`;
  });
  if (out !== css) writeFileSync(p, out);
}
// a dropped fallback goes only when no page, script or stylesheet of the site names it any more
const texts = readdirSync(site, { recursive: true }).filter((f) => /\.(?:html|css|js|json)$/.test(f)).map((f) => readFileSync(join(site, f), 'utf8'));
const gone = [...dropped].filter((f) => f && !texts.some((t) => t.includes(f)));
for (const f of gone) rmSync(join(site, 'assets', f));
writeFileSync(join(site, 'links.json'), `${JSON.stringify(links, null, 2)}\n`);
console.log(`[build] dist/site: ${Object.keys(links).length} assets shared with dist/ (${Object.values(links).join(', ')}); ${gone.length} font fallbacks left out (woff2 kept)`);
