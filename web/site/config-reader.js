// Section 6's config reader: a gallery of real config.json files (config-gallery.js) and one pasted config shared by
// every config figure. The first figure (config-wavelengths) holds the config and the paste box; when it changes and
// reads without error, the other figures get the same config; when it is an error, that figure shows it (key path and
// rule, en + zh) and the others are hidden, so no stale result stays on screen. The line above the figures names the
// model and states the values pe.ropeFromConfig read from its file. The page address keeps a gallery choice as its id
// (<select id="config-pick">) and a pasted config as the first figure's parameter; the other figures follow the first
// one and carry data-nourl.
import { pageApi } from './compute.js';
import { describeFigure } from '../src/figures/index.js';
import { GALLERY } from './config-gallery.js';
import { scalingFacts, mscaleNote, typeNamed } from '../src/figures/defs/config-common.js';
import { tr, onLang } from './state.js';
import { keyRows, at } from './config-keys.js';
import './config-reader.css';

const $ = (id) => document.getElementById(id);
const primary = $('config-wavelengths'), results = $('config-results'), gallery = $('config-gallery'), line = $('config-model');
const followers = ['config-schedule', 'config-decay', 'config-scale'].map($), mrope = $('config-mrope'), pick = $('config-pick');
const DEFAULT = describeFigure('config-wavelengths').params.find((p) => p.name === 'config').default;
// The page opens on a model a learner knows, Llama 3.1 8B (the figure's own default, Llama 4 Scout's keys, is the most
// exotic of them all: chunked attention, NoPE layers, temperature tuning); its button is pressed.
const PAGE_DEFAULT = 'llama-3.1-8b';
let pe = null;

const buttons = GALLERY.map((m) => {
  const b = document.createElement('button');
  const code = document.createElement('code');   // a model's name is its identifier, the same in both languages
  code.textContent = m.name;
  b.type = 'button'; b.append(code); b.dataset.model = m.id; b.setAttribute('aria-pressed', 'false');
  b.addEventListener('click', () => primary.setAttribute('config', m.text));   // → figure-change → sync → describe
  return b;
});
gallery.replaceChildren(...buttons);
const label = () => gallery.setAttribute('aria-label', tr({ en: 'gallery of model configs', zh: '模型配置列表' }));

const num = (x) => (Number.isInteger(x) ? String(x) : String(Number(x.toPrecision(6))));
/** The config text parsed, or null (a file that is not JSON: ropeFromConfig reports the error). @param {string} c */
const parsed = (c) => { try { return JSON.parse(c); } catch { return null; } };
/** The position-related values read from the config, as one sentence in each language. @param {any} [cfg] the parsed file */
function facts(r, cfg) {
  const en = [], zh = [];
  for (const [type, t] of Object.entries(r.layer_types)) {
    if (!t) { en.push(`${type}: no RoPE`); zh.push(`${typeNamed(type)}：不用 RoPE`); continue; }
    const scale = t.factor != null ? ` ×${num(t.factor)}` : '', orig = t.original_max_position_embeddings ? ` from ${t.original_max_position_embeddings} tokens` : '';
    const f = scalingFacts(t), inFile = !cfg || at(cfg, t.source) !== undefined, from = inFile ? ` (read from ${t.source})` : '';
    en.push(`${type}: ${t.rope_type}${scale}${orig}${from}, rope_theta ${num(t.rope_theta)}, rotary_dim ${t.rotary_dim} of head_dim ${t.head_dim}, attention_scaling ${num(t.attention_scaling)}${f.en.map((x) => `, ${x}`).join('')}`);
    zh.push(`${typeNamed(type)}：${t.rope_type}${scale}${orig || inFile ? `（${orig ? `原长度 ${t.original_max_position_embeddings}` : ''}${orig && inFile ? '，' : ''}${inFile ? `读自 ${t.source}` : ''}）` : ''}，rope_theta ${num(t.rope_theta)}，head_dim ${t.head_dim} 中旋转 ${t.rotary_dim} 维，attention_scaling ${num(t.attention_scaling)}${f.zh.map((x) => `，${x}`).join('')}`);
  }
  if (r.layers) {
    const nope = r.layers.filter((l) => !l.rope).length;
    en.push(`${r.layers.length} layers, ${nope} NoPE`); zh.push(`共 ${r.layers.length} 层，其中 ${nope} 层 NoPE`);
  }
  if (r.mla) { const m = mscaleNote(r, r.mla); en.push(`MLA: ${m.en}`); zh.push(`MLA：${m.zh}`); }
  if (r.attn_temperature) {
    const { floor_scale: f, attn_scale: a, form } = r.attn_temperature;
    if (form === 'llama4') { en.push(`temperature tuning: floor_scale ${f}, attn_scale ${a}`); zh.push(`温度调节：floor_scale ${f}，attn_scale ${a}`); }
    else { en.push(`query scale: llama_4_scaling_beta ${a}, a step every ${f} tokens`); zh.push(`查询缩放：llama_4_scaling_beta ${a}，每 ${f} 个词元一级`); }
  }
  if (r.mrope_section) {
    en.push(`M-RoPE [${r.mrope_section.join(', ')}]${r.mrope_interleaved ? ' interleaved' : ''}`);
    zh.push(`M-RoPE [${r.mrope_section.join(', ')}]${r.mrope_interleaved ? '（交错）' : ''}`);
  }
  return { en: `${en.join('; ')}.`, zh: `${zh.join('；')}。` };
}

function describe() {
  const c = primary.getAttribute('config'), m = GALLERY.find((g) => g.text === c);
  for (const b of buttons) b.setAttribute('aria-pressed', String(b.dataset.model === m?.id));
  // the address: a gallery file by its id (config-pick), a pasted config as the figure's own parameter (state.js bounds it)
  if (m) primary.dataset.nourl = ''; else delete primary.dataset.nourl;
  const id = m && m.id !== PAGE_DEFAULT ? m.id : '';   // '' in the address: the page's default model (or a pasted file, kept as its own parameter)
  if (pick.value !== id) { pick.value = id; pick.dispatchEvent(new Event('change', { bubbles: true })); }
  const code = (t) => { const x = document.createElement('code'); x.textContent = t; return x; };
  const name = m ? [code(m.name), tr({ en: ' (', zh: '（' }), code(m.source), tr({ en: ', its config.json): ', zh: ' 的 config.json）：' })]
    : c == null || c === DEFAULT ? [code('Llama 4 Scout'), tr({ en: ' (its position keys): ', zh: '（它的位置参数）：' })]
      : [tr({ en: 'Your config.json: ', zh: '你的 config.json：' })];
  let said = null;
  if (pe) { try { said = facts(pe.ropeFromConfig(c ?? DEFAULT), parsed(c ?? DEFAULT)); } catch { said = null; } }
  const strong = document.createElement('strong');
  strong.append(...name);
  // identifiers (rope_theta, text_config.rope_scaling, full_attention …) set as code, in both languages
  const parts = said ? tr(said).split(/([A-Za-z][\w]*_[\w.]*[A-Za-z\d])/) : [];
  line.replaceChildren(strong, ...parts.map((x, i) => (i % 2 ? code(x) : x)));
  line.dataset.model = m?.id ?? '';
  // the same file key by key: value, what the key does, the number it produces
  let rows = [];
  if (pe) { try { rows = keyRows(pe.ropeFromConfig(c ?? DEFAULT), parsed(c ?? DEFAULT)); } catch { rows = []; } }
  const keys = $('config-keys');
  keys.hidden = !rows.length;
  keys.querySelector('tbody').replaceChildren(...rows.map(([k, v, what, makes]) => {
    const tr0 = document.createElement('tr'), cell = (x) => { const td = document.createElement('td'); td.append(x); return td; };
    // identifiers (rope_theta, hidden_size …) set as code, as in the line above
    const text = (x) => { const td = document.createElement('td'); td.append(...tr(x).split(/([A-Za-z][\w]*_[\w.]*[A-Za-z\d])/).map((y, i) => (i % 2 ? code(y) : y))); return td; };
    tr0.append(cell(code(k)), cell(code(v)), text(what), text(makes));
    return tr0;
  }));
}

let token = 0;
// What is shown below the first figure follows from the file alone (pe.ropeFromConfig, on the main thread before the
// page is ready): nothing waits for the first figure's paint, so the results' layout is final before any of them
// scrolls into view (index.html opens in the page default's state: Llama 3.1 8B has no attention factor and no M-RoPE).
async function sync() {
  const mine = ++token, c = primary.getAttribute('config');
  describe();
  const api = await peReady;
  if (mine !== token) return;
  let r = null;
  try { r = api.ropeFromConfig(c ?? DEFAULT); } catch { /* the first figure shows the error */ }
  results.hidden = !r;   // nothing stale below an error
  if (!r) return;
  for (const f of followers) if (c != null && f.getAttribute('config') !== c) f.setAttribute('config', c);
  // no empty chart: a model whose attention factors are all 1 at every length gets a sentence instead of config-scale
  const flat = !r.mla && !r.attn_temperature && Object.values(r.layer_types).every((t) => !t || (t.attention_scaling === 1 && !['longrope', 'dynamic'].includes(t.rope_type)));
  $('config-scale').hidden = flat;
  $('config-scale-none').hidden = !flat;
  // config-mrope keeps its own M-RoPE example until a config is chosen, and is hidden for a model without M-RoPE
  const m = c == null || r.mrope_section !== null;
  if (m && c != null && mrope.getAttribute('config') !== c) mrope.setAttribute('config', c);
  $('config-mrope-box').hidden = !m;
  $('config-mrope-none').hidden = m;
  // an error of the first figure's own (not the file's) hides the results too
  await null;   // figure-change is dispatched before the figure schedules the new state: read `ready` after that
  primary.ready.catch(() => { if (mine === token) results.hidden = true; });
}

primary.addEventListener('figure-change', sync);
onLang(() => { describe(); label(); });
label();
const peReady = pageApi().then((p) => { pe = p; describe(); return p; });
// a link with a gallery choice (config-pick, restored by state.js) shows that model; no choice and no pasted file: the page's default
const linked = GALLERY.find((g) => g.id === (pick.value || PAGE_DEFAULT));
if (linked && !primary.hasAttribute('config')) primary.setAttribute('config', linked.text);
else if (primary.hasAttribute('config')) sync(); else describe();
