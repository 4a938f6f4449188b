// The export menu's image width control changes the exported image (issue 34, deliver 6: "two controls change nothing
// in the exported numbers"): for config-wavelengths (the config reader's figure) and rope-decay, the reader picks
// 680 px or 390 px in the real <select> and clicks SVG / PNG; the downloaded files must be laid out that wide (the SVG's
// width attribute; the PNG's IHDR width at the export's scale 2) and differ from each other, and the data they show
// (the figure's CSV) must stay the same.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { openPage } from './browser.mjs';

let ctx, page;
before(async () => { ctx = await openPage('/embed.html?figure=rope-decay', { width: 1280, height: 1400 }); });
after(async () => { await ctx?.close(); });

/** Picks `width` in figure `id`'s image-width select and clicks the menu's `kind` button; the downloaded bytes. */
async function exported(id, kind, width) {
  await page.locator(`#${id}`).evaluate(async (el) => { el.scrollIntoView(); await el.ready; });
  if (await page.locator(`#${id} .width`).isHidden()) await page.locator(`#${id} .export`).click();   // open the Export menu
  await page.locator(`#${id} .width`).selectOption(width);
  const [dl] = await Promise.all([page.waitForEvent('download', { timeout: 60000 }), page.locator(`#${id} .menu button[data-x="${kind}"]`).click()]);
  return readFileSync(await dl.path());
}
const svgWidth = (b) => Number(/<svg[^>]*\swidth="([\d.]+)/.exec(b.toString('utf8'))?.[1]);
const pngWidth = (b) => b.readUInt32BE(16);   // IHDR: the width follows the 8-byte signature and the chunk's length and type

for (const name of ['config-wavelengths', 'rope-decay']) {
  let id = name;
  test(`${name} (embed.html): the image width control lays the SVG and the PNG out at 680 and 390 px; the data stay the same`, { timeout: 300000 }, async () => {
    page = await ctx.open(`/embed.html?figure=${name}`, { width: 1280, height: 1400 });
    id = await page.evaluate(() => { const f = /** @type {HTMLElement} */ (document.querySelector('posenc-figure')); f.id ||= 'fig'; return f.id; });
    const csv = await page.locator(`#${id}`).evaluate(async (el) => { el.scrollIntoView(); await el.ready; return el.toCSV(); });
    const s680 = await exported(id, 'svg', '680'), s390 = await exported(id, 'svg', '390');
    assert.deepEqual([svgWidth(s680), svgWidth(s390)], [680, 390]);
    assert.notEqual(s680.toString('utf8'), s390.toString('utf8'));
    const p680 = await exported(id, 'png', '680'), p390 = await exported(id, 'png', '390');
    assert.deepEqual([pngWidth(p680), pngWidth(p390)], [1360, 780]);   // toPNG's default scale 2
    // as shown (the select's first option): laid out at the figure's own width on the page (1280 px), neither of the two
    const sShown = await exported(id, 'svg', '');
    assert.ok(svgWidth(sShown) > 1000, `as shown: ${svgWidth(sShown)}`);
    assert.equal(await page.locator(`#${id}`).evaluate((el) => el.toCSV()), csv);
    if (name === 'config-wavelengths') {
      // the image at a chosen width shows the config on screen (the hidden copy takes the figure's attributes), not the default
      await page.locator(`#${id}`).evaluate(async (el) => {
        el.setAttribute('config', JSON.stringify({ rope_theta: 1234567, head_dim: 64, num_attention_heads: 8, max_position_embeddings: 4096 }));
        await new Promise((r) => setTimeout(r, 100)); await el.ready;
      });
      const other = (await exported(id, 'svg', '680')).toString('utf8');
      assert.match(other, /1234567/);
      assert.doesNotMatch(s680.toString('utf8'), /1234567/);
    }
    await page.context().close();
  });
}
