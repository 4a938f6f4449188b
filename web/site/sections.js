// What the site draws besides the figures: live checks and tables of sections 2–4 (the figures themselves are
// defined once in the package, web/src/figures). draw(run, ui): run(task, params) computes in the worker (tasks.js)
// and resolves with the result, or undefined when a newer request superseded it.
import { compute } from './compute.js';

const L = (en, zh) => ({ en, zh });
const range = (n, f = (i) => i) => Array.from({ length: n }, (_, i) => f(i));
const code = (text) => Object.assign(document.createElement('code'), { textContent: text });
/** `text` as nodes with every subscript written X_k or X_(pos+k) set as a real subscript (<sub>), never raw. */
const subs = (text) => text.split(/_(\([^)]*\)|[A-Za-z0-9]+)/).map((s, i) => (i % 2 ? Object.assign(document.createElement('sub'), { textContent: s.replace(/^\((.*)\)$/, '$1') }) : s));
const mathCode = (text) => { const c = document.createElement('code'); c.append(...subs(text)); return c; };
/** Writes `text` into el, with `backquoted` parts as <code> (variable names of the reference code). */
const withCode = (el, text) => el.replaceChildren(...text.split('`').map((s, i) => (i % 2 ? code(s) : s)));

function matTable(el, rows, head, cell = (v) => v) {
  el.replaceChildren();
  if (head) { const tr = el.insertRow(); for (const h of head) { const th = document.createElement(h === '' ? 'td' : 'th'); th.textContent = h; tr.append(th); } }   // an empty corner is no header
  for (const r of rows) { const tr = el.insertRow(); r.forEach((v, i) => { const td = i === 0 && head ? document.createElement('th') : document.createElement('td'); td.append(...[].concat(cell(v, i))); tr.append(td); }); }
}

export const sections = [
  {
    // "A shift is a rotation": d, base and layout are those of the sinusoidal figure above.
    id: 's2', forms: ['s2k-form'], figures: ['sinusoidal'],
    async draw(run, ui) {
      const f = ui.$('sinusoidal'), { d, base, layout } = f.params;
      const sh = await run('s2Shift', { d, base, layout, pos: ui.num('s2-pos'), k: ui.num('s2-k') });
      if (!sh) return;
      const vec = ui.$('s2-shift-vec');
      if (sh.unsupported) {
        ui.$('s2-shift').textContent = '—'; delete ui.$('s2-shift').dataset.value;
        ui.$('s2-shift-note').textContent = ui.tr(L(' (pick the interleaved or concatenated layout: the check uses the paper’s frequencies)', '（请选交错或拼接排列：此验证用论文的频率）'));
        vec.replaceChildren();
        return;
      }
      ui.out('s2-shift', sh.diff);
      ui.$('s2-shift-note').replaceChildren(...subs(ui.tr(L(' (M_t applied by the wasm RoPE kernel at position −t)', '（M_t 由 WebAssembly 的 RoPE 核以位置 −t 施加）'))));
      matTable(vec, [[mathCode('M_t · p_pos'), ...Array.from(sh.moved.slice(0, 6), (v) => ui.fmt(v, 5))], [mathCode('p_(pos+t)'), ...Array.from(sh.target.slice(0, 6), (v) => ui.fmt(v, 5))]],
        ['', ...range(6, (c) => `c${c}`)]);
      vec.dataset.moved = JSON.stringify(Array.from(sh.moved));
    },
  },
  {
    id: 's2', forms: ['s2l-form'],
    init(ui, draw) {
      ui.$('s2l-file').addEventListener('change', async () => {
        const f = ui.$('s2l-file').files[0];
        const bytes = f ? await f.arrayBuffer() : null;
        this.file = f ? { fileName: f.name } : null;
        ui.$('s2l-name').replaceChildren(new Option('—', ''));
        ui.$('s2l-from').value = '0';
        await compute('s2Load', { bytes, fileName: f?.name }, { transfer: bytes ? [bytes] : [] }); // moved, not copied
        draw();
      });
    },
    async draw(run, ui) {
      const file = this.file;
      let r;
      try {
        r = await run('s2Learned', { name: ui.val('s2l-name'), pos: ui.num('s2l-pos'), clamp: ui.chk('s2l-clamp'), from: ui.num('s2l-from') });
      } catch (e) {
        // A file that cannot be read (or a bad first row): nothing of the previous table stays on display.
        ui.$('s2l-info').textContent = file ? `${file.fileName}: —` : '—';
        delete ui.$('s2l-info').dataset.rows;
        ui.$('s2l-sim').hidden = true;
        const o = ui.$('s2l-lookup'); o.textContent = '—'; delete o.dataset.value; delete o.dataset.error;
        throw e;
      }
      if (!r) return;
      ui.$('s2l-sim').hidden = false;
      ui.$('s2l-from').max = String(r.rows - 1);
      if (r.names.length && ui.$('s2l-name').options.length !== r.names.length) ui.$('s2l-name').replaceChildren(...r.names.map((x) => new Option(x, x, false, x === r.name)));
      ui.$('s2l-info').textContent = file ? `${file.fileName}${r.name ? ` · ${r.name}` : ''}: ${r.rows} × ${r.cols}`
        : ui.tr(L(`a stand-in, the sinusoidal table (load your own file), ${r.rows} × ${r.cols}`, `占位用的正弦表（可载入自己的文件），${r.rows} × ${r.cols}`));
      ui.$('s2l-info').dataset.rows = String(r.rows);
      const last = r.from + r.show - 1, more = r.rows > r.show;
      const rowLabels = range(r.show, (i) => String(r.from + i));
      ui.heat('s2l-sim', r.sim, r.show, r.show, { rowLabels, colLabels: rowLabels, vmin: -1, vmax: 1,
        caption: L(`cosine similarity of rows ${r.from}…${last}${more ? ` of 0…${r.rows - 1} (change “Similarity from row” for others)` : ''}`,
          `第 ${r.from}…${last} 行的余弦相似度${more ? `（共 0…${r.rows - 1} 行；改“相似度起始行”查看其余行）` : ''}`) });
      ui.$('s2l-sim').dataset.from = String(r.from);
      const o = ui.$('s2l-lookup');
      // past the table's end: said for people, with the way out (the API's own message names the parameter and rule)
      const pos = ui.num('s2l-pos'), past = r.error && Number.isInteger(pos) && pos >= r.rows;
      if (r.error) {
        o.textContent = past ? ui.tr(L(`position ${pos} is past the table (rows 0…${r.rows - 1}); tick “clamp” to repeat the last row instead.`,
          `位置 ${pos} 超出了表的范围（第 0…${r.rows - 1} 行）；勾选“截断”可改为重复最后一行。`)) : ui.tr(r.error);
        o.dataset.error = 'true'; delete o.dataset.value;
      }
      else {
        delete o.dataset.error;
        o.textContent = `[${Array.from(r.lookup, (v) => ui.fmt(v, 4)).join(', ')}, …]` + (r.sameAsLast ? ui.tr(L(' = the last row', ' = 最后一行')) : '');
        o.dataset.value = String(r.lookup[0]);
      }
    },
  },
  {
    id: 's3', forms: ['s3r-form'],
    async draw(run, ui) {
      const step = ui.num('s3r-step'); ui.$('s3r-step-out').textContent = String(step);
      const qlen = 3, klen = 5;
      const r = await run('s3RelShift', { qlen, klen });
      if (!r) return;
      // The reshaping steps are pure data movement (shown for reading); the result comes from the wasm relShift.
      const x = Array.from(r.x);
      const padded = range(qlen, (i) => [0, ...x.slice(i * klen, (i + 1) * klen)]).flat();
      const views = [
        { rows: qlen, cols: klen, data: x, cap: L('`x[i][m] = (q_i + v)·r_m`, entry written as 10·i + m; column m is distance `klen−1−m`', '`x[i][m] = (q_i + v)·r_m`，记作 10·i + m；第 m 列对应距离 `klen−1−m`') },
        { rows: qlen, cols: klen + 1, data: padded, cap: L('1. prepend a zero column', '1. 在左侧补一列 0') },
        { rows: klen + 1, cols: qlen, data: padded, cap: L('2. view the same memory as `[klen+1, qlen]`', '2. 把同一块内存看成 `[klen+1, qlen]`') },
        { rows: klen, cols: qlen, data: padded.slice(qlen), cap: L('3. drop the first row', '3. 去掉第一行') },
        { rows: qlen, cols: klen, data: Array.from(r.shifted), cap: L('4. view as `[qlen, klen]` (wasm `relShift`): entry (i, j) now holds distance `i + klen − qlen − j`; right of the diagonal: leftovers the causal mask hides', '4. 再看成 `[qlen, klen]`（WebAssembly 的 `relShift`）：(i, j) 处是距离 `i + klen − qlen − j`；对角线右侧是被因果掩码遮住的残留') },
      ];
      const v = views[step];
      withCode(ui.$('s3r-caption'), ui.tr(v.cap));
      const rows = range(v.rows, (i) => range(v.cols, (j) => v.data[i * v.cols + j]));
      matTable(ui.$('s3r-table'), rows, null, (val) => String(val));
      const step3 = padded.slice(qlen);
      let same = true; for (let i = 0; i < qlen * klen; i++) same &&= step3[i] === r.shifted[i];
      ui.$('s3r-check').textContent = ui.tr(same ? L('✓ steps 1–3 reproduce the wasm relShift exactly.', '✓ 第 1–3 步与 WebAssembly 的 relShift 完全一致。') : L('✗ mismatch', '✗ 不一致'));
      ui.$('s3r-check').dataset.same = String(same);
    },
  },
  {
    id: 's4', forms: ['s4d-form'],
    async draw(run, ui) {
      const d = ui.num('s4d-d'), base = ui.num('s4d-base'), m = ui.num('s4d-m'), n = ui.num('s4d-n');
      const r = await run('s4Deriv', { d, base, m, n });
      if (!r) return;
      const f = (v) => ui.fmt(v, 7), ok = (a, b, tol = 1e-4 * (1 + Math.abs(a))) => (Math.abs(a - b) <= tol ? '✓' : '✗');
      const c = (id, html, value) => { const el = ui.$(id); el.innerHTML = html; el.dataset.value = String(value); };
      c('s4d-c1', `${ok(r.c1.lhs, r.c1.shifted)} ⟨R<sub>${m}</sub>q, R<sub>${n}</sub>k⟩ = <b>${f(r.c1.lhs)}</b>; ⟨R<sub>${m + r.c1.s}</sub>q, R<sub>${n + r.c1.s}</sub>k⟩ = <b>${f(r.c1.shifted)}</b>${ui.tr(L(' (both positions moved by 5)', '（两个位置都加 5）'))}`, r.c1.lhs);
      c('s4d-c2', `${ok(r.c2.nq, r.c2.nqm)} ‖q‖² = <b>${f(r.c2.nq)}</b>, ‖R<sub>${m}</sub>q‖² = <b>${f(r.c2.nqm)}</b>`, r.c2.nqm);
      c('s4d-c3', `${ok(r.c3.rot[0], r.c3.complex[0])}${ok(r.c3.rot[1], r.c3.complex[1])} ${ui.tr(L('pair 0 of the RoPE kernel: ', 'RoPE 核输出的第 0 对：'))}(<b>${f(r.c3.rot[0])}</b>, <b>${f(r.c3.rot[1])}</b>); (q₀ + i q₁)·e<sup>i·${m}θ₀</sup>${ui.tr(L(' with e<sup>i·m·θ₀</sup> from <code>freqs_cis</code>', '（e<sup>i·m·θ₀</sup> 取自 <code>freqs_cis</code>）'))} = (<b>${f(r.c3.complex[0])}</b>, <b>${f(r.c3.complex[1])}</b>)`, r.c3.rot[0]);
      c('s4d-c4', `${ok(r.c4.lhs, r.c4.rhs)} (R<sub>${m}</sub>q)ᵀ(R<sub>${n}</sub>k) = <b>${f(r.c4.lhs)}</b>; qᵀR<sub>${n - m}</sub>k = <b>${f(r.c4.rhs)}</b>`, r.c4.rhs);
      const F = r.forms, show = Math.min(d, 6);
      const row = (name, v, diff) => [name, ...Array.from(v.slice(0, show), (x) => ui.fmt(x, 5)), diff === undefined ? '' : ui.fmt(diff, 6)];
      matTable(ui.$('s4f-table'), [
        row(ui.tr(L('RoPE kernel (wasm ropeApply)', 'RoPE 核（WebAssembly 的 ropeApply）')), F.kernel),
        row(subs(ui.tr(L('block-diagonal R_m · q', '分块对角 R_m · q'))), F.block, F.d_block),
        row(ui.tr(L('element-wise, eq. (23)', '逐元素，式 (23)')), F.eq23, F.d_eq23),
        row(ui.tr(L('sign in the sin table, partner swapped', '负号放进正弦表，配对元素交换')), F.flipped, F.d_flipped),
        row(ui.tr(L('sign in the sin table, q not swapped (as written in some notes)', '负号放进正弦表但 q 不交换（某些笔记的写法）')), F.literal, F.d_literal),
      ], ['', ...range(show, (i) => `c${i}`), ui.tr(L('max |Δ| vs kernel', '与核输出的最大差'))]);
      ui.$('s4f-table').dataset.diffs = JSON.stringify([F.d_block, F.d_eq23, F.d_flipped, F.d_literal]);
      ui.out('s4l-diff', r.layout.diff);
      ui.out('s4l-nop', r.layout.nop);
    },
  },
  {
    id: 's4', forms: [],
    async draw(run, ui) {
      const r = await run('s4Cis', {});
      if (!r) return;
      const cx = (re, im) => `${ui.fmt(re, 4)} ${im < 0 && ui.fmt(im, 4) !== '0' ? '−' : '+'} ${ui.fmt(Math.abs(im), 4)}j`;
      matTable(ui.$('s4c-table'), range(3, (m) => [`m = ${m}`, ...range(4, (j) => cx(r.cis[(m * 4 + j) * 2], r.cis[(m * 4 + j) * 2 + 1]))]),
        ['', ...range(4, (j) => `θ${j} = ${ui.fmt(r.inv[j], 4)}`)]);
      ui.$('s4c-table').dataset.values = JSON.stringify(Array.from(r.cis));
    },
  },
];
