// Copies the built explainer (build/site) into the package as dist/site: a static folder that any static host serves
// as it is (copied alone, at a site's root or under a sub-path; also served by `npx posenc site`). It is self-contained:
// the hashed .wasm builds and figures-standalone.js it loads are its own files in dist/site/assets, the same bytes as
// dist/posenc-simd.wasm, dist/posenc-scalar.wasm and widget.js's standaloneText (the tarball's one deliberate repeat:
// a folder that only a server of our own could complete was a 404 on every other host). Fonts: an @font-face that
// lists a woff2 file keeps only that one (the .woff and .ttf fallbacks hold the same glyphs for browsers older than any
// that runs the explainer's wasm SIMD), and the fallback files go: KaTeX's 60 font files become 20 (−0.8 MB unpacked,
// −0.5 MB in the tarball).
import { cpSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname, dist = join(root, 'dist'), site = join(dist, 'site');
rmSync(site, { recursive: true, force: true });
cpSync(join(root, 'build/site'), site, { recursive: true });
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
console.log(`[build] dist/site: self-contained (${readdirSync(join(site, 'assets')).filter((f) => f.endsWith('.wasm')).join(', ')}); ${gone.length} font fallbacks left out (woff2 kept)`);
