// WordPress (Debian's wordpress 6.1 with mariadb-server and php, installed by scripts/setup.sh): the README's plugin
// recipe run verbatim on the packed tarball (node_modules/posenc/dist/wordpress + the package's files → posenc.zip),
// the zip installed by WordPress's own unzip_file() into the plugins folder and activated, then figures inserted
//   - by an administrator: a block post (<!-- wp:posenc/figure … /-->, block editor content);
//   - by an author (no unfiltered_html, so KSES filters what they save): classic content with [posenc …], saved through
//     KSES as WordPress saves it, and a block inserted and published in the real block editor (post-new.php, logged in
//     through wp-login.php);
//   - by a contributor: the shortcode survives KSES in a pending post.
// Each published post is opened in Chromium: the figure paints (rope-decay at base 500000: the read-out is the closed
// form), with no console error and no HTTP error. WordPress runs on PHP's built-in server with Debian's per-host
// configuration (/etc/wordpress/config-<host>.php, Debian's README.Debian), a database of its own in MariaDB (started
// by the test where it is not running), and wp-content in a temp folder; the test removes all three.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, shot } from '../e2e/browser.mjs';
import { installPackage, repo, scoreAt, SCORE_TOL, sh, tempDir } from './engines.mjs';

const HOST = 'posenc-wp.test', DB = 'posenc_wp_test', WP = '/usr/share/wordpress';
const CONFIG = `/etc/wordpress/config-${HOST}.php`;
// the README's WordPress recipe (its ```sh block)
const readme = readFileSync(join(repo, 'README.md'), 'utf8');
const RECIPE = /### WordPress[\s\S]*?```sh\n([\s\S]*?)```/.exec(readme)?.[1];

const freePort = () => new Promise((ok) => { const s = createServer().listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => ok(port)); }); });
const mysql = (sql) => sh('mysql', ['-uroot', '-e', sql], '/');

/** Runs PHP with WordPress loaded (as the site at `origin`); `code` may `echo`; returns stdout. */
function wpPhp(origin, code, { installing = false } = {}) {
  const host = new URL(origin).host;
  const r = spawnSync('php', ['-d', 'display_errors=stderr', '-r', `$_SERVER['HTTP_HOST'] = '${host}'; $_SERVER['REQUEST_URI'] = '/'; $_SERVER['SERVER_PROTOCOL'] = 'HTTP/1.1';
${installing ? "define('WP_INSTALLING', true);" : ''} require '${WP}/wp-load.php'; ${code}`], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`php failed (${r.status}): ${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

test('WordPress plugin: block and [posenc] shortcode, as administrator, author (block editor and classic) and contributor', { timeout: 900000 }, async (tc) => {
  const t0 = Date.now(), phase = (what) => tc.diagnostic(`${what}: ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  assert.ok(RECIPE, 'the README has a WordPress recipe (### WordPress … ```sh)');
  assert.ok(existsSync(`${WP}/wp-load.php`), 'Debian\'s wordpress is installed (scripts/setup.sh)');
  const t = tempDir('wordpress'), consumer = join(t.dir, 'consumer'), content = join(t.dir, 'wp-content');
  let php = null, browser = null;
  try {
    // MariaDB: started here where it is not running (a fresh machine: Debian starts no services in containers)
    if (spawnSync('mysqladmin', ['ping'], { encoding: 'utf8' }).status !== 0) {
      sh('/etc/init.d/mariadb', ['start'], '/');
    }
    mysql(`DROP DATABASE IF EXISTS ${DB}; CREATE DATABASE ${DB}; CREATE USER IF NOT EXISTS 'posenc_wp'@'localhost' IDENTIFIED BY 'posenc_wp'; GRANT ALL ON ${DB}.* TO 'posenc_wp'@'localhost'; FLUSH PRIVILEGES;`);

    // the plugin, made by the README's recipe from the packed package
    installPackage(consumer);
    sh('bash', ['-euo', 'pipefail', '-c', RECIPE], consumer);
    const zip = join(consumer, 'posenc.zip');
    assert.ok(existsSync(zip), 'the recipe writes posenc.zip');

    // WordPress's wp-content in a temp folder (Debian's theme linked in), PHP's built-in server with a router for it
    mkdirSync(join(content, 'plugins'), { recursive: true }); mkdirSync(join(content, 'themes'), { recursive: true }); mkdirSync(join(content, 'uploads'));
    symlinkSync(`${WP}/wp-content/themes/twentytwentythree`, join(content, 'themes/twentytwentythree'));
    const port = await freePort(), origin = `http://${HOST}:${port}`;
    writeFileSync(CONFIG, `<?php\ndefine('DB_NAME', '${DB}');\ndefine('DB_USER', 'posenc_wp');\ndefine('DB_PASSWORD', 'posenc_wp');\ndefine('DB_HOST', 'localhost');\n`
      + `define('WP_CONTENT_DIR', '${content}');\ndefine('WP_CONTENT_URL', '${origin}/wp-content');\ndefine('WP_HOME', '${origin}');\ndefine('WP_SITEURL', '${origin}');\n`
      + `define('FS_METHOD', 'direct');\ndefine('AUTOMATIC_UPDATER_DISABLED', true);\ndefine('WP_HTTP_BLOCK_EXTERNAL', true);\n`);
    const router = join(t.dir, 'router.php');
    writeFileSync(router, `<?php
// wp-content lives outside Debian's WordPress folder (as /var/lib/wordpress/wp-content does; Apache aliases it)
$p = rawurldecode(parse_url($_SERVER['REQUEST_URI'], PHP_URL_PATH));
if (strpos($p, '/wp-content/') === 0) {
  $f = realpath('${content}' . substr($p, 11));
  if ($f === false || !is_file($f) || strpos($p, '..') !== false) { http_response_code(404); return true; }
  $types = ['js' => 'text/javascript', 'css' => 'text/css', 'wasm' => 'application/wasm', 'json' => 'application/json', 'svg' => 'image/svg+xml', 'png' => 'image/png', 'woff2' => 'font/woff2', 'html' => 'text/html'];
  header('Content-Type: ' . ($types[pathinfo($f, PATHINFO_EXTENSION)] ?? 'application/octet-stream'));
  readfile($f); return true;
}
return false;
`);
    php = spawn('php', ['-S', `127.0.0.1:${port}`, '-t', WP, router], { stdio: ['ignore', 'ignore', 'pipe'], detached: true, env: { ...process.env, PHP_CLI_SERVER_WORKERS: '4' } });
    php.stderr.resume();

    // install WordPress, users, the plugin (WordPress's own unzip, as Plugins → Add New → Upload does), posts
    const ids = JSON.parse(wpPhp(origin, `
require_once ABSPATH . 'wp-admin/includes/upgrade.php';
require_once ABSPATH . 'wp-admin/includes/file.php';
require_once ABSPATH . 'wp-admin/includes/plugin.php';
wp_install('Blog', 'admin', 'admin@example.com', true, '', 'admin-pass-1');
$author = wp_insert_user(['user_login' => 'author', 'user_pass' => 'author-pass-1', 'user_email' => 'author@example.com', 'role' => 'author']);
$contrib = wp_insert_user(['user_login' => 'contrib', 'user_pass' => 'contrib-pass-1', 'user_email' => 'contrib@example.com', 'role' => 'contributor']);
WP_Filesystem();
$u = unzip_file('${zip}', WP_PLUGIN_DIR);
if (is_wp_error($u)) { fwrite(STDERR, $u->get_error_message()); exit(1); }
$a = activate_plugin('posenc/posenc.php');
if (is_wp_error($a)) { fwrite(STDERR, $a->get_error_message()); exit(1); }
echo json_encode(['author' => $author, 'contrib' => $contrib,
  'unfiltered' => [user_can(1, 'unfiltered_html'), user_can($author, 'unfiltered_html'), user_can($contrib, 'unfiltered_html')]]);
`, { installing: true }));
    assert.deepEqual(ids.unfiltered, [true, false, false], 'administrator has unfiltered_html; author and contributor do not');
    const BLOCK = '<!-- wp:posenc/figure {"figure":"rope-decay","params":"base=500000 controls"} /-->';
    const SHORT = '[posenc figure="rope-decay" base="500000" controls]';
    // a post saved as `user` goes through KSES exactly as WordPress's editor saves it (kses_init for that user)
    const save = (user, title, body, status) => JSON.parse(wpPhp(origin, `
wp_set_current_user(${user}); kses_init();
$id = wp_insert_post(wp_slash(['post_title' => '${title}', 'post_content' => ${JSON.stringify(body).replace(/\$/g, '\\$')}, 'post_status' => '${status}', 'post_author' => ${user}]), true);
if (is_wp_error($id)) { fwrite(STDERR, $id->get_error_message()); exit(1); }
echo json_encode(['id' => $id, 'saved' => get_post($id)->post_content, 'rendered' => apply_filters('the_content', get_post($id)->post_content)]);
`));
    const admin = save(1, 'Admin block', `<!-- wp:paragraph -->\n<p>The score against distance:</p>\n<!-- /wp:paragraph -->\n\n${BLOCK}`, 'publish');
    const classic = save(ids.author, 'Author classic', `The score against distance:\n\n${SHORT}\n\nThe end.`, 'publish');
    const contrib = save(ids.contrib, 'Contributor shortcode', `Draft:\n\n${SHORT}`, 'pending');
    assert.ok(classic.saved.includes(SHORT), `KSES keeps the author's shortcode: ${classic.saved}`);
    assert.ok(contrib.saved.includes(SHORT), `KSES keeps the contributor's shortcode: ${contrib.saved}`);
    for (const r of [admin, classic, contrib]) assert.match(r.rendered, /<posenc-figure figure="rope-decay" base="500000" controls>/);

    browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
      args: [...CHROMIUM_ARGS, `--host-resolver-rules=MAP ${HOST} 127.0.0.1`] });
    const ctx = await browser.newContext({ viewport: { width: 1100, height: 900 } });
    await ctx.route((u) => !u.href.startsWith(origin), (r) => r.fulfill({ status: 200, body: '' }));   // no network: wordpress.org, gravatar
    // each post in a page of its own, whose every console error and HTTP error counts
    const view = async (id, name) => {
      const v = await ctx.newPage(), errors = [];
      v.on('console', (m) => { if (m.type() === 'error') errors.push(`${m.text()} ${m.location().url ?? ''}`); });
      v.on('pageerror', (e) => errors.push(String(e)));
      v.on('response', (r) => { if (r.status() >= 400 && !/favicon/.test(r.url())) errors.push(`HTTP ${r.status()} ${r.url()}`); });
      await v.goto(`${origin}/?p=${id}`);
      const fig = v.locator('posenc-figure').first();
      const ready = await fig.evaluate((el) => { el.scrollIntoView(); return customElements.whenDefined('posenc-figure').then(() => el.ready).then(() => 'ok', (e) => `ERR ${e.message}`); });
      assert.equal(ready, 'ok', `${name}: ${errors.join(' | ')}`);
      const x = await fig.evaluate((el) => Number(el.shadowRoot.querySelector('output[data-id="at"]').dataset.value));
      assert.ok(Math.abs(x - scoreAt(500000)) < SCORE_TOL, `${name}: read-out ${x} vs ${scoreAt(500000)}`);
      // the script comes from the plugin's own folder, not from the post
      assert.equal(await v.locator(`script[src^="${origin}/wp-content/plugins/posenc/assets/figures-loader.js"]`).count(), 1, `${name}: the plugin's script`);
      await shot(fig, `engines/wordpress-${name}`);
      assert.deepEqual(errors, [], `${name}: console and HTTP errors`);
      await v.close();
      phase(name);
    };
    await view(admin.id, 'admin-block');
    await view(classic.id, 'author-classic');

    // the author in the real block editor: log in, insert the block, publish (the editor's own requests are WordPress's:
    // it asks an author's REST API for the theme's templates and gets 403; not counted)
    phase('set-up and two posts viewed');
    const p = await ctx.newPage(), editorErrors = [];
    p.on('pageerror', (e) => editorErrors.push(String(e)));
    await p.goto(`${origin}/wp-login.php`);
    await p.fill('#user_login', 'author'); await p.fill('#user_pass', 'author-pass-1');
    await Promise.all([p.waitForURL(/wp-admin/, { timeout: 120000 }), p.click('#wp-submit')]);
    phase('logged in');
    await p.goto(`${origin}/wp-admin/post-new.php`, { timeout: 180000 });
    await p.waitForFunction(() => window.wp?.data?.select('core/editor')?.getCurrentPostId() && window.wp.blocks?.getBlockType('posenc/figure'), null, { timeout: 180000 });
    const editorId = await p.evaluate(async () => {
      const { data, blocks } = window.wp;
      data.dispatch('core/editor').editPost({ title: 'Author block editor', status: 'publish' });
      data.dispatch('core/block-editor').insertBlocks(blocks.createBlock('posenc/figure', { figure: 'rope-decay', params: 'base=500000 controls' }));
      await data.dispatch('core/editor').savePost();
      return data.select('core/editor').getCurrentPostId();
    });
    phase('published in the editor');
    const stored = JSON.parse(wpPhp(origin, `echo json_encode(['content' => get_post(${editorId})->post_content, 'status' => get_post_status(${editorId})]);`));
    assert.equal(stored.status, 'publish');
    assert.match(stored.content, /<!-- wp:posenc\/figure \{"params":"base=500000 controls"\} \/-->|<!-- wp:posenc\/figure \{"figure":"rope-decay","params":"base=500000 controls"\} \/-->/);
    await view(editorId, 'author-block-editor');
    assert.deepEqual(editorErrors, [], 'no uncaught error in the editor');
  } finally {
    await Promise.race([browser?.close(), new Promise((r) => setTimeout(r, 10000))]);
    if (php) try { process.kill(-php.pid, 'SIGKILL'); } catch { /* gone */ }   // the server and its workers
    rmSync(CONFIG, { force: true });
    spawnSync('mysql', ['-uroot', '-e', `DROP DATABASE IF EXISTS ${DB};`]);
    t.remove();
  }
});
