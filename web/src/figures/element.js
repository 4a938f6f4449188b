// @ts-check
// <posenc-figure figure="NAME">: any explainer figure by name, computed through the package (engine.js) and drawn
// with the building blocks. Attributes: the figure's parameters (same names and values as the site's URL state),
// plus lang="en|zh", controls (show its own controls), caption (absent: title + takeaway; "false": none; other
// text: that caption), theme="light|dark". Attribute changes re-render; panels follow the container's width.
// el.ready: a Promise that resolves when the current state is painted (rejects with the error shown).
// A picture among its children (<img>, <picture> or <svg>: the figure at its defaults, say) stands in for it until it
// first paints, as where scripts do not run; its own content is laid out meanwhile, unseen, at its final width.
// Export: toPNG({scale, width}) → Blob, toSVG() → string (toSVG({width}) → Promise), toCSV() → string, and a menu on the
// figure (PNG and SVG as shown, or laid out 680 px wide for a blog column, 390 px for a phone).
// Bad input: a translated message inside the figure naming the attribute and what is allowed, and console.error.
import { Base, shadow, define, $ } from './blocks/base.js';
import { langOf, PeHeatmap } from './blocks/pe-heatmap.js';
import { PeLines } from './blocks/pe-lines.js';
import { PeVec2 } from './blocks/pe-vec2.js';
import { fmtReadout } from './blocks/format.js';
import { SvgContext } from './blocks/svgctx.js';
import { defs, figureDef } from './registry.js';
import { tr, readParams, formatParam, FigureError } from './params.js';
import { run, recycle, engineInfo } from './engine.js';
import { PosencError, show } from '#wasm';
import { BADGE } from './backend.js';
import { applyTheme, watchTheme, unwatchTheme } from './theme.js';
import { UI, css, fillControls, fillDataTable } from './element-ui.js';
import { toHTML } from './to-html.js';
import { figureCSV } from './to-csv.js';
import { altText, atWidth, exportSubtitle, paramsSet, svgWithAlt, pngWithAlt, saveFile } from './export-extras.js';
import { exportLayout, paintExport } from './export-layout.js';
import { setCodeText } from './blocks/code-text.js';
import { panelRoom } from './panel-room.js';

/** @typedef {import('./params.js').FigureDef} FigureDef */
/** @typedef {import('./params.js').PanelSpec} PanelSpec */
/** @typedef {import('./params.js').Bilingual} Bilingual */
/** @typedef {PeHeatmap | PeLines | PeVec2} Block */
/** @typedef {{ promise: Promise<PosencFigure>, resolve(v: PosencFigure): void, reject(e: unknown): void, settled?: boolean }} Deferred */
/** @typedef {'png' | 'svg' | 'csv' | 'html'} ExportKind */

const paramNames = [...new Set(Object.values(defs).flatMap((d) => Object.keys(d.params)))];
const OWN = ['figure', 'lang', 'controls', 'caption', 'theme'];

/**
 * `<posenc-figure figure="NAME">`. Attributes: the figure's parameters (see {@link describeFigure}); `lang="en|zh"`
 * (default: the nearest `lang` of the page); `controls` (show the figure's controls); `caption` (absent: title and
 * takeaway; `"false"`: none; other text: that caption); `theme="auto|light|dark"` (auto, the default, follows the page's
 * dark mode). Changes re-render. Events: `figure-change` {figure, params} whenever a parameter attribute changes (its
 * controls, a drag, the page).
 */
export class PosencFigure extends Base {
  static get observedAttributes() { return [...OWN, ...paramNames]; }
  /** @private @type {Map<string, Block>} */ _blocks = new Map();
  /** @private */ _panelKey = '';
  /** @private @type {import('./engine.js').Job | null} */ _job = null;
  /** @private */ _visible = false;
  /** @private */ _userCancel = false;
  /** @private */ _painted = false;
  /** @private */ _queued = false;
  /** @private @type {Deferred} */ _deferred = this._newDeferred();
  /** @private @type {{ def: FigureDef, p: Record<string, any>, panels: PanelSpec[], backend: string | undefined } | null} */ _last = null;
  /** @private @type {string | null} */ _logged = null;
  /** @private @type {Record<string, Record<string, string>>} */ _bindings = {};
  /** @private @type {IntersectionObserver | null} */
  _io = globalThis.IntersectionObserver ? new IntersectionObserver((es) => {
    this._room(es[es.length - 1].boundingClientRect.width);   // the observer's first report gives the width unforced
    if (es.some((x) => x.isIntersecting)) { this._visible = true; this._io?.disconnect(); this._schedule(); }
  }, { rootMargin: '200px' }) : null;

  constructor() {
    super();
    shadow(this, css, `<slot></slot><p class="title" part="title"></p><p class="takeaway" part="takeaway"></p><form hidden></form>
      <p class="progress" hidden><progress max="1" value="0"></progress><output class="status"></output><button type="button" class="cancel"></button></p>
      <p class="error" role="alert" hidden></p><div class="panels"></div><div class="readouts" aria-live="polite"></div><div class="tables"></div>
      <div class="bar"><button type="button" class="export" aria-expanded="false"></button><span class="menu" hidden>
      <button type="button" data-x="png">PNG</button><button type="button" data-x="svg">SVG</button><button type="button" data-x="csv">CSV</button><button type="button" data-x="html" title="one self-contained file: opens offline, in an iframe">HTML</button><select class="width"><option value=""></option><option value="680">680 px</option><option value="390">390 px</option></select></span>
      <details class="data"><summary></summary><div class="scroll"></div></details><span class="backend" part="backend" hidden></span><span class="note export-error" role="status" hidden></span></div>`);
    const sr = /** @type {ShadowRoot} */ (this.shadowRoot);
    $(sr, '.cancel').addEventListener('click', () => { this._userCancel = true; this._job?.cancel(); });
    $(sr, '.export').addEventListener('click', (e) => { const m = $(sr, '.menu'); m.hidden = !m.hidden; /** @type {HTMLElement} */ (e.currentTarget).setAttribute('aria-expanded', String(!m.hidden)); });
    // a download that fails (HTML where the bundler did not emit figures-standalone.js) says why, beside the menu
    $(sr, '.menu').addEventListener('click', (e) => { const x = /** @type {HTMLElement} */ (e.target).dataset?.x; if (x) this.download(/** @type {ExportKind} */ (x), { width: Number(/** @type {HTMLSelectElement} */ ($(sr, '.width')).value) || undefined }).then(() => { $(sr, '.export-error').hidden = true; }, (err) => { Object.assign($(sr, '.export-error'), { textContent: err.message, hidden: false }); console.warn(err.message); }); });
    $(sr, 'details').addEventListener('toggle', () => this._fillDataTable());
    $(sr, 'form').addEventListener('submit', (e) => e.preventDefault());
    $(sr, 'form').addEventListener('input', (e) => this._fromControl(/** @type {HTMLInputElement} */ (e.target)));
    $(sr, 'form').addEventListener('change', (e) => this._fromControl(/** @type {HTMLInputElement} */ (e.target)));
    $(sr, '.panels').addEventListener('vector-change', (e) => {
      const { detail } = /** @type {CustomEvent<{ id: string, x: number, y: number }>} */ (e), panel = /** @type {HTMLElement} */ (e.target).dataset.panel ?? '';
      const bind = this._bindings[panel]?.[detail.id];
      if (bind) this.setAttribute(bind, `${detail.x},${detail.y}`);   // → figure-change
    });
  }

  connectedCallback() {
    // a picture of the figure among its children stands in for it until its first paint (text, e.g. "needs
    // JavaScript", does not: it is for readers where the script never runs)
    // that the page does not hide (as where its layout is not the figure's; its own display, as the shadow root's slot
    // renders nothing yet)
    if (!this._painted && [...this.children].some((c) => c.matches('img, picture, svg') && getComputedStyle(c).display !== 'none')) this.setAttribute('data-placeholder', '');
    watchTheme(this);
    if (this._io && !this._visible) this._io.observe(this); else this._visible = true;
    this._schedule();
  }
  disconnectedCallback() { unwatchTheme(this); this._io?.disconnect(); this._job?.cancel(); }
  /** @param {string} name @param {string | null} old @param {string | null} value */
  attributeChangedCallback(name, old, value) {
    if (name === 'theme' && this.isConnected) this._retheme();
    // A parameter changed (its own controls, a drag, or the host page): tell the page (URL state, live numbers).
    if (old !== value && !OWN.includes(name) && defs[this.getAttribute('figure') ?? '']?.params[name]) this._changed();
    this._schedule();
  }

  /** Follows theme="auto|light|dark" (theme.js): repaints the blocks, which cache their colours, when it changed. */
  _retheme() { if (applyTheme(this)) for (const b of this._blocks.values()) { if (b instanceof PeHeatmap) b._theme = null; b.render(); } }
  /** Resolves when the current state has been painted; rejects with the error the figure shows. @returns {Promise<PosencFigure>} */
  get ready() { return this._deferred.promise; }
  /** The figure's language: its `lang` attribute, else the nearest `lang` of the page ('zh…' → 'zh', else 'en'). @returns {string} */
  get lang() { const l = this.getAttribute('lang') || langOf(this.parentNode ? this.parentNode : this) || ''; return l.startsWith('zh') ? 'zh' : 'en'; }
  /** @param {string} v */
  set lang(v) { this.setAttribute('lang', v); }
  /** Where figures compute: 'worker', 'main' (no worker could start), or null before the first computation. @returns {'worker' | 'main' | null} */
  get engine() { return engineInfo.kind; }
  /** Timing of the last computation that finished in the worker: {name, workerMs, roundTripMs} (benchmarks). @returns {{ name: string, workerMs: number, roundTripMs: number } | null} */
  get timing() { return engineInfo.last; }
  /** Computations on this page stopped before they finished (superseded by a newer state, or cancelled). */
  get aborted() { return engineInfo.aborted; }
  /** The current parameter values (parsed; throws FigureError for a bad attribute). @returns {Record<string, unknown>} */
  get params() { return readParams(figureDef(this.getAttribute('figure') ?? ''), (n) => this.getAttribute(n)); }

  /** @private */
  _newDeferred() {
    const d = /** @type {Deferred} */ ({}); d.promise = new Promise((res, rej) => { d.resolve = res; d.reject = rej; });
    d.promise.catch(() => {}); // rejections are reported in the figure and on the console, not as unhandled
    return (this._deferred = d);
  }
  /** @private */
  _schedule() {
    if (this._deferred.settled) this._newDeferred();
    if (this._queued) return;
    this._queued = true;
    queueMicrotask(() => { this._queued = false; this._update(); });
  }
  /** @private @param {unknown} [err] */
  _settle(err) {
    const d = this._deferred;
    if (d.settled) return;
    d.settled = true;
    if (err) d.reject(err); else d.resolve(this);
  }

  /** @private The figure's own content replaces the children that stood in for it (for good). */
  _shown() { this._painted = true; this.removeAttribute('data-placeholder'); }

  /** @private @param {Bilingual | string | null | undefined} s */
  _text(s) { return tr(s, this.lang); }

  /** Until the first paint, the panels keep the room they will take (panel-room.js) @private @param {number} width */
  _room(width) {
    if (this._last) return;
    let room = 0;
    // panels that read the result (def.panels(p, r) declares r) are known only with it
    try { const def = figureDef(this.getAttribute('figure') ?? ''); if (def.panels.length < 2) room = panelRoom(def.panels(readParams(def, (n) => this.getAttribute(n)), undefined), width); } catch { /* no estimate */ }
    /** @type {HTMLElement} */ ($(this.shadowRoot, '.panels')).style.minHeight = room ? `${room}px` : '';
  }

  /** @private @param {FigureDef | undefined} def */
  _chrome(def) {
    const sr = /** @type {ShadowRoot} */ (this.shadowRoot), cap = this.getAttribute('caption');
    // Text is written only when it changes: a repaint then leaves the layout of the page untouched.
    const text = (/** @type {string} */ sel, /** @type {string} */ v) => setCodeText($(sr, sel), v);   // identifiers as code
    text('.title', cap && cap !== 'true' && cap !== 'false' && cap !== '' ? cap : def ? this._text(def.title) : '').hidden = cap === 'false';
    text('.takeaway', def ? this._text(def.takeaway) : '').hidden = cap === 'false' || !!(cap && cap !== 'true');
    text('.export', `${this._text(UI.export)} ▾`);
    text('.cancel', this._text(UI.cancel));
    text('summary', this._text(UI.data));
    text('.width option', this._text(UI.shown)); $(sr, '.width').setAttribute('aria-label', this._text(UI.imgWidth));   // PNG/SVG laid out for a blog column or a phone
  }

  /** @private @param {any} e */
  _showError(e) {
    const sr = /** @type {ShadowRoot} */ (this.shadowRoot), box = $(sr, '.error');
    setCodeText(box, e.text ? this._text(e.text) : e.message);
    box.hidden = false;
    box.dataset.attribute = e.attribute ?? '';
    // Nothing stale stays on display as if it were current.
    $(sr, '.panels').hidden = true;
    $(sr, '.readouts').replaceChildren();
    $(sr, '.tables').replaceChildren();
    $(sr, '.backend').hidden = true;
    $(sr, '.progress').hidden = true;   // no "computing… Cancel" above an error: nothing is computing any more
    this._last = null;
    this._shown();
    const msg = `<posenc-figure figure="${this.getAttribute('figure')}">: ${e.text ? e.text.en : e.message}`;
    if (msg !== this._logged) console.error(msg);   // once per error, not again when the same state is revisited
    this._logged = msg;
    this._settle(e);
  }

  /** @private */
  async _update() {
    // Title, takeaway, controls and parameter errors at once (no wasm needed): the figure has nearly its final height
    // before it paints, so the page does not jump. The computation waits until the figure is near the viewport.
    const name = this.getAttribute('figure') ?? '';
    /** @type {FigureDef | undefined} */
    let def;
    /** @type {Record<string, any>} */
    let p;
    try {
      def = figureDef(name);
      this._chrome(def);
      p = readParams(def, (n) => this.getAttribute(n));
    } catch (e) { this._chrome(def); this._controls(def, null); this._showError(e); return; }
    this._controls(def, p);
    $(this.shadowRoot, '.error').hidden = true;
    if (!this._visible) return;
    this._job?.cancel();
    const sr = /** @type {ShadowRoot} */ (this.shadowRoot), bar = /** @type {HTMLProgressElement} */ ($(sr, 'progress')), status = $(sr, '.status');
    const prog = $(sr, '.progress');
    // def.long: a long computation (progress bar, status, Cancel) always (true) or for some parameters (a function of them)
    const long = typeof def.long === 'function' ? def.long(p) : !!def.long;
    if (!long) prog.hidden = true;
    if (long) { prog.hidden = false; bar.value = 0; status.textContent = this._text(UI.computing); status.dataset.state = 'running'; Object.assign($(sr, '.cancel'), { disabled: false, hidden: false }); }
    this._userCancel = false;
    const t0 = performance.now();
    const job = run(name, p, { onProgress: (/** @type {number} */ f) => { bar.value = f; } });
    this._job = job;
    let r;
    try { r = await job.promise; } catch (e) {
      if (this._job !== job) return;            // superseded by a newer state: that one settles `ready`
      if (/** @type {any} */ (e)?.cancelled) {
        status.textContent = this._text(UI.cancelled); status.dataset.state = 'cancelled'; Object.assign($(sr, '.cancel'), { disabled: true, hidden: true });
        for (const o of /** @type {NodeListOf<HTMLOutputElement>} */ (sr.querySelectorAll('.readouts output'))) { o.textContent = '—'; delete o.dataset.value; }
        this._settle(Object.assign(new Error('cancelled'), { cancelled: true }));
        return;
      }
      this._showError(e); return;
    }
    if (this._job !== job) return;
    const ms = performance.now() - t0;
    try { this._paint(def, p, r, ms); } catch (e) { this._showError(e); return; }
    this._shown();
    this._logged = null;
    if (long) { bar.value = 1; Object.assign($(sr, '.cancel'), { disabled: true, hidden: true }); status.dataset.state = 'done'; }   // nothing left to cancel
    this._settle();
  }

  /** @private @param {FigureDef} def @param {Record<string, any>} p @param {any} r @param {number} ms */
  _paint(def, p, r, ms) {
    const sr = /** @type {ShadowRoot} */ (this.shadowRoot), panels = def.panels(p, r), out = def.render(r, p, { ms });
    const key = panels.map((x) => `${x.id}:${x.block}`).join(',');
    const box = /** @type {HTMLElement} */ ($(sr, '.panels'));
    box.hidden = !panels.length;   // a state with nothing to draw (a config without a layer schedule) keeps no blank room
    box.style.minHeight = '';   // the room kept until now (_room)
    if (key !== this._panelKey) {
      this._blocks.clear(); this._bindings = {};
      box.replaceChildren(...panels.map((x) => {
        const el = /** @type {Block} */ (document.createElement(`pe-${x.block}`));
        el.dataset.panel = x.id;
        if (x.palette) el.setAttribute('palette', x.palette);
        if (x.size) el.setAttribute('size', String(x.size));
        if (x.height) el.setAttribute('height', String(x.height));
        if (x.range) el.setAttribute('range', String(x.range));
        if (x.logY) el.setAttribute('log-y', '');
        if (x.logX) el.setAttribute('log-x', '');
        if (x.cols) el.dataset.cols = String(x.cols);
        if (x.full) el.dataset.full = '';   // a heatmap with a row of its own (a long strip), not sharing it
        if (x.bind) this._bindings[x.id] = x.bind;
        this._blocks.set(x.id, el);
        return el;
      }));
      this._panelKey = key;
    }
    const t = (/** @type {Bilingual | string | null | undefined} */ s) => (s == null ? s : this._text(s));
    /** @type {ArrayLike<number>[]} */
    const replaced = [];
    for (const x of panels) {
      const el = /** @type {Block} */ (this._blocks.get(x.id)), o = out[x.id];
      for (const a of ['caption', 'xlabel', 'ylabel']) { const v = o[a] == null ? null : /** @type {string} */ (t(o[a])); if (v === null) el.removeAttribute(a); else if (el.getAttribute(a) !== v) el.setAttribute(a, v); }
      if (el instanceof PeHeatmap) { if (el.data && el.data !== o.data) replaced.push(el.data); el.update(o.categories ? { ...o, categories: o.categories.map((/** @type {{ label: Bilingual }} */ c) => ({ ...c, label: t(c.label) })) } : o); }
      else if (el instanceof PeLines) el.update({ series: o.series.map((/** @type {{ label?: Bilingual }} */ s) => ({ ...s, label: t(s.label) })), marks: (o.marks || []).map((/** @type {{ label?: Bilingual }} */ m) => ({ ...m, label: t(m.label) })), regions: (o.regions || []).map((/** @type {{ label?: Bilingual }} */ m) => ({ ...m, label: t(m.label) })) });
      else el.vectors = o.vectors;
    }
    // Arrays no longer drawn anywhere go back to the worker, which refills them next time (a fresh large array costs
    // more than the computation).
    const shown = new Set([...this._blocks.values()].map((b) => (b instanceof PeHeatmap ? b.data : null)));
    for (const a of replaced) if (!shown.has(a)) recycle(a);
    const ros = out.readouts || [], box2 = $(sr, '.readouts');
    const same = box2.children.length === ros.length && ros.every((ro, i) => /** @type {HTMLOutputElement | null} */ (box2.children[i].querySelector('output'))?.dataset.id === ro.id);
    const colon = this.lang === 'zh' ? '：' : ': ';   // Chinese read-outs take the full-width colon
    if (same) {
      // the same read-outs: only their text (no DOM rebuilt, so a repaint invalidates little layout)
      ros.forEach((ro, i) => {
        const para = box2.children[i], o = $(para, 'output'), text = ro.text != null ? t(ro.text) : fmtReadout(ro.value);
        if (Number.isFinite(ro.value)) o.dataset.value = String(ro.value); else delete o.dataset.value;
        setCodeText(o, text ?? '');
        setCodeText(/** @type {Element} */ (para.firstElementChild), `${t(ro.label)}${colon}`);
        const n = para.querySelector('.note'); if (n) setCodeText(n, ro.note ? ` — ${t(ro.note)}` : '');
      });
    } else box2.replaceChildren(...ros.map((ro) => {
      const para = document.createElement('p'), o = document.createElement('output');
      o.dataset.id = ro.id;
      if (Number.isFinite(ro.value)) o.dataset.value = String(ro.value);
      setCodeText(o, (ro.text != null ? t(ro.text) : fmtReadout(ro.value)) ?? '');
      const label = document.createElement('span'); label.className = 'label';
      para.append(setCodeText(label, `${t(ro.label)}${colon}`), o);
      if (ro.note) { const n = document.createElement('span'); n.className = 'note'; setCodeText(n, ` — ${t(ro.note)}`); para.append(n); }
      return para;
    }));
    if (out.status) setCodeText($(sr, '.status'), t(out.status) ?? '');
    $(sr, '.tables').replaceChildren(...(out.tables || []).map((tb) => {
      const wrap = document.createElement('div'), table = document.createElement('table');
      wrap.className = 'scroll'; table.dataset.id = tb.id;
      if (tb.caption) setCodeText(table.createCaption(), t(tb.caption) ?? '');
      for (const row of tb.rows) { const tr2 = table.insertRow(); row.forEach((v, i) => { const c = document.createElement(i ? 'td' : 'th'); setCodeText(c, String(v)); tr2.append(c); }); }
      wrap.append(table); return wrap;
    }));
    // the backend the results report (figures computed through pe.gpu), never the one asked for
    const badge = $(sr, '.backend'), by = (/** @type {Record<string, Bilingual>} */ (BADGE))[r?.backend];
    badge.hidden = !by;
    if (by) { badge.textContent = t(by) ?? ''; badge.dataset.backend = r.backend; }
    this._last = { def, p, panels, backend: by && r.backend };
    if (/** @type {HTMLDetailsElement} */ ($(sr, 'details')).open) this._fillDataTable();
  }

  // ── controls ──
  /** @private @param {FigureDef | undefined} def @param {Record<string, any> | null} p */
  _controls(def, p) {
    const form = /** @type {HTMLFormElement} */ ($(this.shadowRoot, 'form'));
    const show = this.hasAttribute('controls') && this.getAttribute('controls') !== 'false' && !!def;
    form.hidden = !show;
    if (show && def) fillControls(form, def, p, this);
  }

  /** @private @param {HTMLInputElement} el */
  _fromControl(el) {
    const def = defs[this.getAttribute('figure') ?? ''], s = def?.params[el.name];
    if (!s) return;
    this.setAttribute(el.name, el.type === 'checkbox' ? String(el.checked) : el.value);   // → figure-change
  }

  /** Tells the host page a parameter changed, by any means (the site writes it into the URL): detail {figure, params}. @private */
  _changed() {
    const def = defs[this.getAttribute('figure') ?? ''];
    /** @type {Record<string, string>} */
    const params = {};
    for (const [n, s] of Object.entries(def.params)) { const v = this.getAttribute(n); if (v != null && v !== formatParam(s, s.default)) params[n] = v; }
    this.dispatchEvent(new CustomEvent('figure-change', { detail: { figure: def.name, params }, bubbles: true, composed: true }));
  }

  // ── export ──
  /** @private @param {import('./blocks/export.js').Ctx} g */
  _layout(g) {
    if (!this._last) throw new Error('posenc-figure: nothing painted yet (await el.ready first)');
    const sr = /** @type {ShadowRoot} */ (this.shadowRoot), shown = (/** @type {string} */ sel) => ($(sr, sel).hidden ? null : $(sr, sel).textContent);
    return exportLayout(g, { W: Math.max(296, Math.round($(sr, '.panels').clientWidth || 640)), title: shown('.title'), takeaway: exportSubtitle(shown('.takeaway'), paramsSet(this), this.lang === 'zh'),
      readouts: [...sr.querySelectorAll('.readouts p')].map((p) => p.textContent ?? ''), blocks: this._last.panels.map(({ id }) => /** @type {Block} */ (this._blocks.get(id))) });
  }

  /** @private @param {import('./blocks/export.js').Ctx} g @param {ReturnType<typeof exportLayout>} lay */
  _paintExport(g, lay) {
    const cs = getComputedStyle(this);
    paintExport(g, lay, { fg: cs.getPropertyValue('--pe-fg').trim() || '#000', bg: cs.getPropertyValue('--pe-bg').trim() || '#fff' });
  }

  /**
   * PNG of the figure as shown (caption, axes, legends, colour bars, read-outs); size = layout size × `scale`, the
   * device pixels per CSS pixel: 0 < scale ≤ 8, default 2. `width`: lay the figure out that many CSS px wide first (a
   * hidden copy: e.g. 680 for a blog column), 240 to 4096. Carries the alt text (iTXt Title, Description).
   * @param {{ scale?: number, width?: number }} [options] @returns {Promise<Blob>} @throws PosencError naming the option
   */
  async toPNG({ scale = 2, width } = {}) {
    if (typeof scale !== 'number' || !(scale > 0 && scale <= 8)) {
      throw new PosencError(`scale: must be a number in (0, 8] — device pixels per CSS pixel, default 2 (got ${show(scale)})`);
    }
    if (width !== undefined) return atWidth(this, width, (c) => c.toPNG({ scale }));   // laid out for that width
    const probe = /** @type {CanvasRenderingContext2D} */ (document.createElement('canvas').getContext('2d')), lay = this._layout(probe);
    const c = document.createElement('canvas');
    c.width = Math.round(lay.W * scale); c.height = Math.round(lay.H * scale);
    const g = /** @type {CanvasRenderingContext2D} */ (c.getContext('2d')); g.setTransform(scale, 0, 0, scale, 0, 0);
    this._paintExport(g, lay);
    /** @type {Blob} */
    const png = await new Promise((res, rej) => c.toBlob((b) => (b ? res(b) : rej(new Error('PNG encoding failed'))), 'image/png'));
    return pngWithAlt(png, $(this.shadowRoot, '.title').textContent ?? '', this.altText());
  }
  /** The figure's alt text: title, takeaway, the parameters drawn and the read-outs (also inside every PNG and SVG). @returns {string} */
  altText() { return altText(this); }
  /**
   * Self-contained SVG: vector text, axes and curves; heatmap cells as rects up to 128×128, one embedded image beyond.
   * With `width` (240 to 4096): the same laid out that many CSS px wide (a hidden copy, as toPNG({ width })), a Promise.
   * @overload @param {{ width?: undefined }} [options] @returns {string}
   */
  /**
   * The same laid out `width` CSS px wide (240 to 4096; a hidden copy, as toPNG({ width })): the SVG is that wide.
   * @overload @param {{ width: number }} options @returns {Promise<string>}
   */
  /** @param {{ width?: number }} [options] @returns {string | Promise<string>} */
  toSVG({ width } = {}) {
    if (width !== undefined) return atWidth(this, width, async (c) => /** @type {PosencFigure} */ (c).toSVG());   // laid out for that width: a Promise
    const probe = new SvgContext(0, 0), lay = this._layout(probe), g = new SvgContext(lay.W, lay.H);
    this._paintExport(g, lay);
    return svgWithAlt(g.toString(), $(this.shadowRoot, '.title').textContent ?? '', this.altText());
  }
  /**
   * Exactly the numbers drawn, as one CSV table: comment lines name the figure, its parameters and every column;
   * columns `panel,series,row,col,x,value,band_min,band_max`: `value` is a heatmap cell or the curve drawn as a line;
   * a banded curve (a shaded min/max band with one edge drawn as its line) also fills `band_min` and `band_max`. Each
   * read-out is a comment line, `# read-out <id> (<label>): <value>`, its value at full precision.
   * @returns {string}
   */
  toCSV() {
    if (!this._last) throw new Error('posenc-figure: nothing painted yet (await el.ready first)');
    // the read-outs as drawn, at full precision (a figure whose control moves only a read-out, e.g. yarn-attention's
    // factor, changes its CSV too)
    const readouts = [...(/** @type {ShadowRoot} */ (this.shadowRoot)).querySelectorAll('.readouts p')].map((para) => {
      const o = /** @type {HTMLOutputElement} */ (para.querySelector('output'));
      return { id: o.dataset.id ?? '', label: (para.firstChild?.textContent ?? '').replace(/[:：]\s*$/, ''), value: o.dataset.value ?? o.textContent ?? '' };
    });
    return figureCSV({ ...this._last, readouts }, (id) => /** @type {Block} */ (this._blocks.get(id)));
  }

  /**
   * The figure in its current state as one self-contained HTML page (element, state, worker and wasm inlined; opens
   * from file://, under any sub-path, in a sandboxed iframe; postMessage protocol: README "One file per figure").
   * `script`: the text of posenc's dist/figures-standalone.js, when it is not beside figures.js (a bundled site).
   * @param {{ script?: string, theme?: 'auto' | 'light' | 'dark', controls?: boolean }} [options] @returns {Promise<string>}
   */
  toHTML(options) { return toHTML(this, options); }

  /**
   * Saves a PNG, SVG, CSV or self-contained HTML file through the browser (`width`: a PNG or SVG laid out that wide, as toPNG).
   * @param {'png' | 'svg' | 'csv' | 'html'} kind @param {{ script?: string, controls?: boolean, width?: number }} [opts] @returns {Promise<void>}
   */
  async download(kind, opts) {
    const name = `posenc-${this.getAttribute('figure')}`;
    const width = opts?.width, blob = kind === 'png' ? await this.toPNG({ width }) : kind === 'html' ? new Blob([await this.toHTML(opts)], { type: 'text/html' })
      : new Blob([kind === 'svg' ? await this.toSVG(/** @type {{ width: number }} */ ({ width })) : this.toCSV()], { type: kind === 'svg' ? 'image/svg+xml' : 'text/csv' });
    saveFile(/** @type {ShadowRoot} */ (this.shadowRoot), blob, `${name}.${kind}`);
  }

  /** @private */
  _fillDataTable() {
    if (/** @type {HTMLDetailsElement} */ ($(this.shadowRoot, 'details')).open && this._last) fillDataTable($(this.shadowRoot, 'details .scroll'), this.toCSV(), this.lang);
  }
}

define('posenc-figure', PosencFigure);
export { FigureError };
