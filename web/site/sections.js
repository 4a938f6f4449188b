import { compute, recycle } from './compute.js';
// What each section draws. draw(run, ui): run(task, params) computes in the worker (tasks.js) and resolves with
// the result, or undefined when a newer request superseded it.
const L = (en, zh) => ({ en, zh });
const range = (n, f = (i) => i) => Array.from({ length: n }, (_, i) => f(i));

function matTable(el, rows, head, cell = (v) => v) {
  el.replaceChildren();
  if (head) { const tr = el.insertRow(); for (const h of head) { const th = document.createElement('th'); th.textContent = h; tr.append(th); } }
  for (const r of rows) { const tr = el.insertRow(); r.forEach((v, i) => { const td = i === 0 && head ? document.createElement('th') : document.createElement('td'); td.innerHTML = ''; td.append(cell(v, i)); tr.append(td); }); }
}

export const sections = [
  // ───────────── 1 ─────────────
  {
    id: 's1', forms: ['s1-form'],
    async draw(run, ui) {
      const r = await run('s1Perm', { text: ui.val('s1-text'), i: ui.num('s1-i'), j: ui.num('s1-j'), rope: ui.chk('s1-rope') });
      if (!r) return;
      ui.heat('s1-a', r.sa, r.n, r.n, { rowLabels: r.tokensA, colLabels: r.tokensA, vmin: 0, vmax: 1, caption: L('original', '原句') });
      ui.heat('s1-b', r.sb, r.n, r.n, { rowLabels: r.tokensB, colLabels: r.tokensB, vmin: 0, vmax: 1, caption: L('two tokens swapped', '交换两个 token 后') });
      ui.out('s1-diff', r.diff, r.diff.toExponential(3));
      ui.$('s1-verdict').textContent = ui.tr(r.diff <= 1e-6
        ? L('— only permuted (up to rounding): attention cannot tell the two orders apart.', '——只是重新排列（在舍入误差内）：注意力分不清两种语序。')
        : L('— the scores changed: with RoPE attention sees the order.', '——分数本身变了：加了 RoPE 的注意力能看到语序。'));
    },
  },
  {
    id: 's1', forms: ['s1m-form'],
    init(ui) {
      ui.$('s1m-map').addEventListener('cell-hover', (e) => {
        const { row, col, value } = e.detail;
        ui.out('s1m-hover', value, `${ui.tr(L('query', '查询'))} ${row} → ${ui.tr(L('key', '键'))} ${col}: ${value.toFixed(6)}`);
      });
    },
    async draw(run, ui) {
      const seq = ui.num('s1m-seq');
      ui.$('s1m-seq-out').textContent = String(seq);
      const r = await run('s1Main', { text: ui.val('s1m-text'), seq, head_dim: ui.num('s1m-hd'), base: ui.num('s1m-base'), rope: ui.chk('s1m-rope'), causal: ui.chk('s1m-causal') });
      if (!r) return;
      if (r.tokens) this.tokens = r.tokens;
      const previous = ui.$('s1m-map').data;
      ui.heat('s1m-map', r.scores, seq, seq, { rowLabels: this.tokens, colLabels: this.tokens, caption: L('softmax(q·kᵀ/√d): row = query, column = key', 'softmax(q·kᵀ/√d)：行 = 查询，列 = 键') });
      if (previous && previous !== r.scores) recycle(previous);  // the heatmap no longer holds it
    },
  },

  // ───────────── 2 ─────────────
  {
    id: 's2', forms: ['s2-form'],
    async draw(run, ui) {
      const n = ui.num('s2-n'), d = ui.num('s2-d'), base = ui.num('s2-base'), layout = ui.val('s2-layout');
      const i = ui.num('s2-i'), j = ui.num('s2-j'), s = ui.num('s2-s'), pos = ui.num('s2-pos'), k = ui.num('s2-k');
      const [r, sh] = await Promise.all([run('s2Sin', { n, d, base, layout, i, j, s }), run('s2Shift', { d, base, layout, pos, k })]);
      if (!r || !sh) return;
      ui.heat('s2-table', r.table, n, d, { caption: L('PE table: row = position, column = channel', '位置编码表：行 = 位置，列 = 通道'), xlabel: L('channel →', '通道 →'), ylabel: L('position ↓', '位置 ↓') });
      ui.heat('s2-sim', r.sim, n, n, { caption: L('similarity p_i · p_j', '相似度 p_i · p_j'), xlabel: 'j →', ylabel: 'i ↓' });
      const freqs = layout === 't2t' ? L('tensor2tensor frequencies', 'tensor2tensor 的频率') : L('paper frequencies', '论文的频率');
      ui.lines('s2-wave', [{ y: r.wavelength, kind: 'points', label: { en: `wavelength 2π/ω_i (${freqs.en})`, zh: `波长 2π/ω_i（${freqs.zh}）` } }],
        { caption: L('Wavelength of each channel pair, in tokens', '每对通道的波长（单位：token）'), xlabel: L('pair i', '通道对 i'), ylabel: L('tokens', 'token 数') });
      ui.out('s2-pij', r.pij); ui.out('s2-pijs', r.pijs);
      const vec = ui.$('s2-shift-vec');
      if (sh.unsupported) {
        ui.$('s2-shift').textContent = '—'; delete ui.$('s2-shift').dataset.value;
        ui.$('s2-shift-note').textContent = ui.tr(L('(pick the interleaved or concatenated layout: the check uses the paper’s frequencies)', '（请选交错或拼接排列：此验证用论文的频率）'));
        vec.replaceChildren();
        return;
      }
      ui.out('s2-shift', sh.diff, sh.diff.toExponential(2));
      ui.$('s2-shift-note').textContent = ui.tr(L('(M_k applied by the wasm RoPE kernel at position −k)', '（M_k 由 wasm 的 RoPE 核以位置 −k 施加）'));
      matTable(vec, [[ui.tr(L('M_k p_pos', 'M_k p_pos')), ...Array.from(sh.moved.slice(0, 6), (v) => ui.fmt(v, 5))], ['p_{pos+k}', ...Array.from(sh.target.slice(0, 6), (v) => ui.fmt(v, 5))]],
        ['', ...range(6, (c) => `c${c}`)]);
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
        await compute('s2Load', { bytes, fileName: f?.name }, { transfer: bytes ? [bytes] : [] }); // moved, not copied
        draw();
      });
    },
    async draw(run, ui) {
      const file = this.file;
      const r = await run('s2Learned', { name: ui.val('s2l-name'), pos: ui.num('s2l-pos'), clamp: ui.chk('s2l-clamp') });
      if (!r) return;
      if (r.names.length && ui.$('s2l-name').options.length !== r.names.length) ui.$('s2l-name').replaceChildren(...r.names.map((x) => new Option(x, x, false, x === r.name)));
      const what = file ? `${file.fileName}${r.name ? ` · ${r.name}` : ''}` : ui.tr(L('stand-in (sinusoidal table) — load a file', '占位（正弦表）——请载入文件'));
      ui.$('s2l-info').textContent = `${what}: ${r.rows} × ${r.cols}`;
      ui.$('s2l-info').dataset.rows = String(r.rows);
      ui.heat('s2l-sim', r.sim, r.show, r.show, { caption: L(`cosine similarity of rows 0…${r.show - 1}`, `第 0…${r.show - 1} 行的余弦相似度`), vmin: -1, vmax: 1 });
      const o = ui.$('s2l-lookup');
      if (r.error) { o.textContent = r.error; o.dataset.error = 'true'; delete o.dataset.value; }
      else {
        delete o.dataset.error;
        o.textContent = `[${Array.from(r.lookup, (v) => ui.fmt(v, 4)).join(', ')}, …]` + (r.sameAsLast ? ui.tr(L(' = the last row', ' = 最后一行')) : '');
        o.dataset.value = String(r.lookup[0]);
      }
    },
  },
  {
    id: 's2', forms: ['s2m-form', 's2-form'],
    async draw(run, ui) {
      const pos = ui.num('s2m-pos'); ui.$('s2m-pos-out').textContent = String(pos);
      const r = await run('s2Mult', { word: ui.val('s2m-word'), pos, d: ui.num('s2-d'), base: ui.num('s2-base'), n: ui.num('s2-n') });
      if (!r) return;
      ui.lines('s2m-lines', [{ y: r.x, label: L('embedding x', '词向量 x'), kind: 'step' }, { y: r.p, label: L('p_pos', 'p_pos'), kind: 'step' }, { y: r.xp, label: 'x ⊙ p', kind: 'step', width: 2.4 }],
        { caption: L('Multiplicative PE, channel by channel', '乘性位置编码（逐通道）'), xlabel: L('channel', '通道') });
      ui.out('s2m-rec', r.recDiff, r.recDiff.toExponential(2));
    },
  },

  // ───────────── 3 ─────────────
  {
    id: 's3', forms: ['s3s-form'],
    async draw(run, ui) {
      const n = ui.num('s3s-n'), K = ui.num('s3s-k'); ui.$('s3s-k-out').textContent = String(K);
      const r = await run('s3Shaw', { n, K });
      if (!r) return;
      ui.heat('s3s-map', r.idx, n, n, { caption: L('index clip(j − i, −K, K) + K of the embedding used', '所用嵌入的下标 clip(j − i, −K, K) + K'), xlabel: 'key j →', ylabel: 'query i ↓' });
      ui.out('s3s-count', 2 * K + 1, String(2 * K + 1));
      ui.out('s3s-corner', r.corner, String(r.corner));
    },
  },
  {
    id: 's3', forms: ['s3x-form'],
    async draw(run, ui) {
      const r = await run('s3XL', { text: ui.val('s3x-text'), mem: ui.num('s3x-mem') });
      if (!r) return;
      const o = { rowLabels: r.rows, colLabels: r.cols };
      ui.heat('s3x-a', r.a, r.qlen, r.klen, { ...o, caption: L('(a) content–content', '(a) 内容–内容') });
      ui.heat('s3x-b', r.b, r.qlen, r.klen, { ...o, caption: L('(b) content–position', '(b) 内容–位置') });
      ui.heat('s3x-c', r.c, r.qlen, r.klen, { ...o, caption: L('(c) global content bias', '(c) 全局内容偏置') });
      ui.heat('s3x-d', r.d, r.qlen, r.klen, { ...o, caption: L('(d) global position bias', '(d) 全局位置偏置') });
      ui.heat('s3x-score', r.score, r.qlen, r.klen, { ...o, caption: L('score (a+b+c+d)/√d, causal', '总分 (a+b+c+d)/√d，因果') });
      const last = r.score[r.qlen * r.klen - 1];
      ui.out('s3x-last', last);
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
        { rows: qlen, cols: klen, data: x, cap: L('x[i][m] = (q_i + v)·r_m, entry written as 10·i + m; column m is distance klen−1−m', 'x[i][m] = (q_i + v)·r_m，记作 10·i + m；第 m 列对应距离 klen−1−m') },
        { rows: qlen, cols: klen + 1, data: padded, cap: L('1. prepend a zero column', '1. 在左侧补一列 0') },
        { rows: klen + 1, cols: qlen, data: padded, cap: L('2. view the same memory as [klen+1, qlen]', '2. 把同一块内存看成 [klen+1, qlen]') },
        { rows: klen, cols: qlen, data: padded.slice(qlen), cap: L('3. drop the first row', '3. 去掉第一行') },
        { rows: qlen, cols: klen, data: Array.from(r.shifted), cap: L('4. view as [qlen, klen] (wasm relShift): entry (i, j) now holds distance i + klen − qlen − j; right of the diagonal: leftovers the causal mask hides', '4. 再看成 [qlen, klen]（wasm 的 relShift）：(i, j) 处是距离 i + klen − qlen − j；对角线右侧是被因果掩码遮住的残留') },
      ];
      const v = views[step];
      ui.$('s3r-caption').textContent = ui.tr(v.cap);
      const rows = range(v.rows, (i) => range(v.cols, (j) => v.data[i * v.cols + j]));
      matTable(ui.$('s3r-table'), rows, null, (val) => String(val));
      const step3 = padded.slice(qlen);
      let same = true; for (let i = 0; i < qlen * klen; i++) same &&= step3[i] === r.shifted[i];
      ui.$('s3r-check').textContent = ui.tr(same ? L('✓ steps 1–3 reproduce the wasm relShift exactly.', '✓ 第 1–3 步与 wasm 的 relShift 完全一致。') : L('✗ mismatch', '✗ 不一致'));
      ui.$('s3r-check').dataset.same = String(same);
    },
  },
  {
    id: 's3', forms: ['s3t-form'],
    async draw(run, ui) {
      const nb = ui.num('s3t-nb'), md = ui.num('s3t-md'), bi = ui.chk('s3t-bi'), heads = 8;
      const r = await run('s3T5', { nb, md, bi, head: ui.num('s3t-head'), heads });
      if (!r) return;
      ui.lines('s3t-plot', [{ x: r.rel, y: r.buckets, kind: 'step', label: L('bucket(j − i)', '桶号 bucket(j − i)') }],
        { caption: L('T5 bucket of the relative position j − i', 'T5 相对位置 j − i 的桶号'), xlabel: 'j − i', marks: [{ x: -md, label: '−max_distance' }, { x: md, label: 'max_distance' }] });
      matTable(ui.$('s3t-table'), [
        ['i − j', ...range(31, String)],
        ['f(i − j)', ...r.table.map(String)],
      ], null);
      ui.$('s3t-table').dataset.values = r.table.join(',');
      ui.heat('s3t-bias', r.bias, r.seq, r.seq, { caption: L(`per-head bias (head ${ui.num('s3t-head')}, random bucket weights)`, `逐头偏置（第 ${ui.num('s3t-head')} 个头，随机桶权重）`), xlabel: 'key j →', ylabel: 'query i ↓' });
    },
  },
  {
    id: 's3', forms: ['s3d-form'],
    async draw(run, ui) {
      const pb = ui.num('s3d-pb'), mr = ui.num('s3d-mr'), n = ui.num('s3d-n');
      const r = await run('s3Deberta', { pb, mr, n });
      if (!r) return;
      ui.lines('s3d-plot', [{ x: r.delta, y: r.mapped, kind: 'step', label: L('bucketed δ', '分桶后的 δ') }, { x: r.delta, y: r.delta, dash: [4, 3], label: 'δ' }],
        { caption: L('DeBERTa relative position δ = i − j and its log bucket', 'DeBERTa 相对位置 δ = i − j 及其对数分桶'), xlabel: 'δ = i − j' });
      const o = { rowLabels: r.tokens, colLabels: r.tokens };
      ui.heat('s3d-c2c', r.c2c, n, n, { ...o, caption: 'content→content' });
      ui.heat('s3d-c2p', r.c2p, n, n, { ...o, caption: 'content→position' });
      ui.heat('s3d-p2c', r.p2c, n, n, { ...o, caption: 'position→content' });
      ui.heat('s3d-score', r.score, n, n, { ...o, caption: L('sum', '总和') });
      ui.out('s3d-scale', r.scale);
    },
  },
  {
    id: 's3', forms: ['s3u-form'],
    async draw(run, ui) {
      const n = ui.num('s3u-n');
      const r = await run('s3Tupe', { n, head: ui.num('s3u-head') });
      if (!r) return;
      ui.heat('s3u-map', r.map, n, n, { caption: L('TUPE positional term (sinusoidal p, random U_Q, U_K)', 'TUPE 位置项（正弦 p，随机 U_Q、U_K）'), xlabel: 'j →', ylabel: 'i ↓' });
    },
  },

  // ───────────── 4 ─────────────
  {
    id: 's4', forms: ['s4p-form'],
    init(ui, draw) {
      ui.$('s4p-plane').addEventListener('vector-change', (e) => {
        const { id, x, y } = e.detail;
        const el = ui.$(id === 'q' ? 's4p-q' : 's4p-k');
        el.value = `${x},${y}`;
        el.dispatchEvent(new Event('input', { bubbles: true }));
      });
    },
    async draw(run, ui) {
      const m = ui.num('s4p-m'), n = ui.num('s4p-n');
      ui.$('s4p-m-out').textContent = String(m); ui.$('s4p-n-out').textContent = String(n);
      const q = ui.val('s4p-q').split(',').map(Number), k = ui.val('s4p-k').split(',').map(Number);
      const r = await run('s4Play', { q, k, m, n, theta: ui.num('s4p-theta') });
      if (!r) return;
      ui.$('s4p-plane').setAttribute('caption', ui.tr(L('drag the tips of q and k (or focus them and use the arrow keys)', '拖动 q、k 的端点（或聚焦后用方向键）')));
      ui.$('s4p-plane').vectors = [
        { id: 'q', x: q[0], y: q[1], label: 'q', color: '#0072B2', draggable: true },
        { id: 'k', x: k[0], y: k[1], label: 'k', color: '#D55E00', draggable: true },
        { id: 'qm', x: r.qm[0], y: r.qm[1], label: 'R_m q', color: '#0072B2', dashed: true },
        { id: 'kn', x: r.kn[0], y: r.kn[1], label: 'R_n k', color: '#D55E00', dashed: true },
      ];
      ui.out('s4p-dot', r.dot); ui.out('s4p-rel', r.rel); ui.out('s4p-raw', r.raw);
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
      c('s4d-c1', `${ok(r.c1.lhs, r.c1.shifted)} ⟨R<sub>${m}</sub>q, R<sub>${n}</sub>k⟩ = <b>${f(r.c1.lhs)}</b>; ⟨R<sub>${m + r.c1.s}</sub>q, R<sub>${n + r.c1.s}</sub>k⟩ = <b>${f(r.c1.shifted)}</b> ${ui.tr(L('(both positions moved by 5)', '（两个位置都加 5）'))}`, r.c1.lhs);
      c('s4d-c2', `${ok(r.c2.nq, r.c2.nqm)} ‖q‖ = <b>${f(r.c2.nq)}</b>, ‖R<sub>${m}</sub>q‖ = <b>${f(r.c2.nqm)}</b>`, r.c2.nqm);
      c('s4d-c3', `${ok(r.c3.rot[0], r.c3.complex[0])}${ok(r.c3.rot[1], r.c3.complex[1])} ${ui.tr(L('pair 0 of the RoPE kernel', 'RoPE 核输出的第 0 对'))}: (<b>${f(r.c3.rot[0])}</b>, <b>${f(r.c3.rot[1])}</b>); (q₀ + i q₁)·e<sup>i·${m}θ₀</sup> ${ui.tr(L('with e^{imθ₀} from freqs_cis', '（e^{imθ₀} 取自 freqs_cis）'))} = (<b>${f(r.c3.complex[0])}</b>, <b>${f(r.c3.complex[1])}</b>)`, r.c3.rot[0]);
      c('s4d-c4', `${ok(r.c4.lhs, r.c4.rhs)} (R<sub>${m}</sub>q)ᵀ(R<sub>${n}</sub>k) = <b>${f(r.c4.lhs)}</b>; qᵀR<sub>${n - m}</sub>k = <b>${f(r.c4.rhs)}</b>`, r.c4.rhs);
      const F = r.forms, show = Math.min(d, 6);
      const row = (name, v, diff) => [name, ...Array.from(v.slice(0, show), (x) => ui.fmt(x, 5)), diff === undefined ? '' : diff.toExponential(1)];
      matTable(ui.$('s4f-table'), [
        row(ui.tr(L('RoPE kernel (wasm ropeApply)', 'RoPE 核（wasm ropeApply）')), F.kernel),
        row(ui.tr(L('block-diagonal R_m · q', '分块对角 R_m · q')), F.block, F.d_block),
        row(ui.tr(L('element-wise, eq. (23)', '逐元素，式 (23)')), F.eq23, F.d_eq23),
        row(ui.tr(L('sign in the sin table, partner swapped', '负号放进 sin 表，配对元素交换')), F.flipped, F.d_flipped),
        row(ui.tr(L('sign in the sin table, q not swapped (as written in some notes)', '负号放进 sin 表但 q 不交换（某些笔记的写法）')), F.literal, F.d_literal),
      ], ['', ...range(show, (i) => `c${i}`), ui.tr(L('max |Δ| vs kernel', '与核输出的最大差'))]);
      ui.$('s4f-table').dataset.diffs = JSON.stringify([F.d_block, F.d_eq23, F.d_flipped, F.d_literal]);
      ui.out('s4l-diff', r.layout.diff, r.layout.diff.toExponential(2));
      ui.out('s4l-nop', r.layout.nop, r.layout.nop.toExponential(2));
    },
  },
  {
    id: 's4', forms: [],
    async draw(run, ui) {
      const r = await run('s4Cis', {});
      if (!r) return;
      const cx = (re, im) => `${re.toFixed(4)}${im < 0 ? '−' : '+'}${Math.abs(im).toFixed(4)}j`;
      matTable(ui.$('s4c-table'), range(3, (m) => [`m = ${m}`, ...range(4, (j) => cx(r.cis[(m * 4 + j) * 2], r.cis[(m * 4 + j) * 2 + 1]))]),
        ['', ...range(4, (j) => `θ${j} = ${ui.fmt(r.inv[j], 4)}`)]);
      ui.$('s4c-table').dataset.values = JSON.stringify(Array.from(r.cis));
    },
  },
  {
    id: 's4', forms: ['s4r-form'],
    async draw(run, ui) {
      const hd = ui.num('s4r-hd'), f = ui.num('s4r-f');
      const r = await run('s4Partial', { hd, f });
      if (!r) return;
      ui.heat('s4r-map', r.map, r.seq, hd, { caption: L('RoPE(ones) — row = position, column = channel', 'RoPE(全 1)——行 = 位置，列 = 通道'), xlabel: L('channel →', '通道 →'), ylabel: L('position ↓', '位置 ↓') });
      ui.out('s4r-rd', r.rd, String(r.rd));
    },
  },

  // ───────────── 6 ─────────────
  {
    id: 's6', forms: ['s6-form'],
    async draw(run, ui) {
      const d = ui.num('s6-d'), base = ui.num('s6-base'), orig = ui.num('s6-orig'), factor = ui.num('s6-factor');
      const r = await run('s6Ext', { d, base, orig, factor });
      if (!r) return;
      ui.lines('s6-wave', [{ y: r.wave, kind: 'points', label: L('wavelength 2π/θ_i', '波长 2π/θ_i') }],
        { caption: L('Wavelength per pair against the training length', '每对的波长与训练长度'), xlabel: L('pair i', '通道对 i'), ylabel: L('tokens', 'token 数'),
          marks: [{ y: orig, label: L(`training length ${orig}`, `训练长度 ${orig}`), color: '#D55E00' }, { y: orig * factor, label: L(`target ${orig * factor}`, `目标 ${orig * factor}`), color: '#009E73' }] });
      ui.out('s6-incomplete', r.incomplete, `${r.incomplete} / ${d / 2}`);
      const names = { linear: 'PI (linear)', ntk: 'NTK-aware', dynamic: L(`dynamic NTK at ${orig * factor}`, `动态 NTK（长度 ${orig * factor}）`), yarn: 'YaRN', llama3: 'Llama 3', longrope: L('LongRoPE (illustrative factors)', 'LongRoPE（示意因子）') };
      const series = Object.entries(r.schemes).filter(([, v]) => v.inv).map(([k, v]) => ({ label: names[k], y: Float64Array.from(v.inv, (w, i) => w / r.def[i]) }));
      ui.lines('s6-ratio', series, { caption: L('Scaled frequency ÷ original frequency, per pair (1 = unchanged, 1/factor = fully interpolated)', '缩放后频率 ÷ 原频率（1 = 不变，1/factor = 完全插值）'), xlabel: L('pair i (fast → slow)', '通道对 i（快 → 慢）'), marks: [{ y: 1 / factor, label: '1/factor' }] });
    },
  },
  {
    id: 's6', forms: ['s6c-form'],
    async draw(run, ui) {
      const r = await run('s6Config', { text: ui.val('s6c-config') });
      if (!r) return;
      const info = ui.$('s6c-info');
      info.textContent = `rope_type = ${r.rope_type} · head_dim = ${r.head_dim} · rotary_dim = ${r.rotary_dim} · rope_theta = ${r.rope_theta} · max_position_embeddings = ${r.max_position_embeddings} · attention_scaling = ${ui.fmt(r.attention_scaling, 6)}`;
      info.dataset.value = String(r.inv_freq[r.inv_freq.length - 1]);
      ui.lines('s6c-plot', [
        { y: Float64Array.from(r.def, (w) => (2 * Math.PI) / w), label: L('wavelength, unscaled', '波长（未缩放）'), dash: [4, 3] },
        { y: Float64Array.from(r.inv_freq, (w) => (2 * Math.PI) / w), label: L(`wavelength, ${r.rope_type}`, `波长（${r.rope_type}）`) },
      ], { caption: L('This model’s RoPE wavelengths', '该模型的 RoPE 波长'), xlabel: L('pair i', '通道对 i'), ylabel: L('tokens', 'token 数') });
    },
  },

  // ───────────── 7 ─────────────
  {
    id: 's7', forms: ['s7a-form'],
    async draw(run, ui) {
      const h = ui.num('s7a-h'), n = ui.num('s7a-n');
      const r = await run('s7Alibi', { h, head: ui.num('s7a-head'), n, sym: ui.chk('s7a-sym') });
      if (!r) return;
      ui.lines('s7a-slopes', [{ y: r.slopes, kind: 'bar', label: L(`slopes for ${h} heads`, `${h} 个头的斜率`) }], { caption: L('ALiBi slope per head', '每个头的 ALiBi 斜率'), xlabel: L('head', '头') });
      ui.heat('s7a-map', r.bias, n, n, { caption: L('bias −m·|i − j| (grey: masked)', '偏置 −m·|i − j|（灰色：被遮住）'), xlabel: 'key j →', ylabel: 'query i ↓' });
      ui.out('s7a-slope', r.slope);
    },
  },
  {
    id: 's7', forms: ['s7x-form'],
    async draw(run, ui) {
      const d = ui.num('s7x-d'), sb = ui.num('s7x-sb'), n = ui.num('s7x-n');
      const r = await run('s7Xpos', { d, sb, n });
      if (!r) return;
      ui.lines('s7x-scale', r.probe.map((p, i) => ({ y: r.scale[i], label: L(`position ${p}`, `位置 ${p}`) })),
        { caption: L('query scale ζ_i^(c/scale_base) per pair', 'query 的逐对缩放 ζ_i^(c/scale_base)'), xlabel: L('pair i', '通道对 i') });
      ui.lines('s7x-decay', [{ y: r.rope, label: 'RoPE' }, { y: r.xpos, label: 'xPos' }],
        { caption: L('q·k/√d of all-ones q, k against distance', '全 1 的 q、k：q·k/√d 与距离'), xlabel: L('distance', '距离') });
      ui.out('s7x-first', r.xpos[0]);
    },
  },
  // ───────────── 5 ─────────────
  {
    id: 's5', forms: ['s5-form'],
    init(ui) {
      ui.$('s5-cancel').addEventListener('click', () => this.job?.cancel());
      ui.$('s5-at').addEventListener('input', () => this.showAt(ui));
    },
    showAt(ui) {
      const r = this.last;
      if (!r) return;
      // the read-out is at relative position n − m = `at`: index at + q_position of the swept keys
      const at = Math.min(r.curves[0].values.length - 1, Math.max(0, ui.num('s5-at') + r.qPos));
      const v = r.curves[0].values[at];
      ui.out('s5-at-val', v, `${ui.fmt(v, 5)} (base ${r.curves[0].base})`);
      if (r.curves[1]) { const v2 = r.curves[1].values[at]; ui.out('s5-at-val2', v2, `${ui.fmt(v2, 5)} (base ${r.curves[1].base})`); } else ui.out('s5-at-val2', NaN, '—');
    },
    async draw(run, ui) {
      const p = { qk: ui.val('s5-qk'), base: ui.num('s5-base'), base2: ui.num('s5-base2'), d: ui.num('s5-d'), n: ui.num('s5-n'), bound: ui.chk('s5-bound'), width: 900 };
      const bar = ui.$('s5-progress'), status = ui.$('s5-status'), cancel = ui.$('s5-cancel');
      bar.value = 0; cancel.disabled = false;
      status.textContent = ui.tr({ en: 'computing…', zh: '计算中…' }); status.dataset.state = 'running';
      const t0 = performance.now();
      let cancelled = false;
      this.job = { cancel: () => { cancelled = true; runner.cancel(); } };
      const runner = run.runner('s5Sweep');
      const r = await runner.run('s5Sweep', p, { onProgress: (f) => { bar.value = f; } });
      if (!r) {
        if (cancelled) { status.textContent = ui.tr({ en: 'cancelled', zh: '已取消' }); status.dataset.state = 'cancelled'; cancel.disabled = true; }
        return;
      }
      cancel.disabled = true; bar.value = 1;
      const ms = performance.now() - t0;
      status.textContent = ui.tr({ en: `${p.n.toLocaleString()} distances × ${r.curves.length} curve(s) in ${ms.toFixed(0)} ms`, zh: `${p.n.toLocaleString()} 个距离 × ${r.curves.length} 条曲线，用时 ${ms.toFixed(0)} ms` });
      status.dataset.state = 'done';
      this.last = r;
      const w = r.curves[0].min.length, dx = p.n / w, x0 = p.qk === 'mid' ? -r.qPos : 0;
      const series = r.curves.map((c) => ({ y: c.min, y2: c.max, x0, dx, label: `${ui.tr({ en: 'base', zh: '底数' })} ${c.base}` }));
      if (r.bound) {
        // scaled so that it starts at |score at distance 0| (the bound's factor max|h_{i+1} − h_i| is left out)
        const c = r.curves[0], i0 = Math.min(c.max.length - 1, Math.floor(r.qPos / dx));
        const s0 = Math.max(Math.abs(c.max[i0]), Math.abs(c.min[i0])) / (r.bound[0] || 1);
        series.push({ y: Float32Array.from(r.bound, (v) => v * s0), x0: 0, dx, label: ui.tr({ en: 'Su’s bound (scaled)', zh: '苏的上界（缩放）' }), color: '#000000', dash: [5, 3] });
      }
      ui.lines('s5-plot', series, { caption: { en: `⟨R_m q, R_n k⟩ against ${p.qk === 'mid' ? 'n − m (q in the middle)' : 'distance n − m'} (min/max per pixel)`, zh: `⟨R_m q, R_n k⟩ 与${p.qk === 'mid' ? ' n − m（q 在中间）' : '距离 n − m'}（每像素的最小/最大值）` }, xlabel: { en: 'relative position', zh: '相对位置' } });
      this.showAt(ui);
    },
  },

  // ───────────── 8 ─────────────
  {
    id: 's8', forms: ['s8-form'],
    async draw(run, ui) {
      const n = ui.num('s8-n');
      const r = await run('s8Linear', { n, d: ui.num('s8-d'), base: ui.num('s8-base'), causal: ui.chk('s8-causal'), seed: ui.num('s8-seed') });
      if (!r) return;
      ui.lines('s8-den', [{ y: r.naive.denominator, label: { en: 'denominator, eq. (28)', zh: '分母，式 (28)' } }, { y: r.num.denominator, label: { en: 'denominator, eq. (29)', zh: '分母，式 (29)' } }],
        { caption: { en: 'Normaliser of each query', zh: '每个查询的归一化分母' }, xlabel: { en: 'query i', zh: '查询 i' }, marks: [{ y: 0, label: '0' }] });
      ui.heat('s8-naive', r.naive.output, n, 8, { caption: { en: 'output, eq. (28)', zh: '输出，式 (28)' }, xlabel: 'v channel', ylabel: 'i ↓' });
      ui.heat('s8-num', r.num.output, n, 8, { caption: { en: 'output, eq. (29)', zh: '输出，式 (29)' }, xlabel: 'v channel', ylabel: 'i ↓' });
      ui.out('s8-min-naive', r.minNaive); ui.out('s8-min-num', r.minNum);
      ui.out('s8-max-naive', r.maxNaive); ui.out('s8-max-num', r.maxNum);
    },
  },

  // ───────────── 9 ─────────────
  {
    id: 's9', forms: ['s9-form'],
    init(ui) {
      ui.$('s9-mapA').addEventListener('cell-hover', (e) => {
        const { row, col, value } = e.detail;
        ui.out('s9-hover', value, `${row} → ${col}: ${value === -Infinity ? '−∞' : value.toFixed(6)}`);
      });
    },
    async draw(run, ui) {
      const a = ui.val('s9-a'), b = ui.val('s9-b'), view = ui.val('s9-view');
      const r = await run('s9Explore', { text: ui.val('s9-text'), a, b, heads: ui.num('s9-heads'), head: ui.num('s9-head'), hd: ui.num('s9-hd'), causal: ui.chk('s9-causal') });
      if (!r) return;
      const name = (v) => ui.$('s9-a').querySelector(`option[value="${v}"]`).textContent;
      const o = { rowLabels: r.tokens, colLabels: r.tokens, ...(view === 'probs' ? { vmin: 0, vmax: 1 } : {}) };
      ui.heat('s9-mapA', r.A[view], r.n, r.n, { ...o, caption: `A: ${name(a)} · ${ui.tr({ en: 'head', zh: '头' })} ${r.head}` });
      ui.heat('s9-mapB', r.B[view], r.n, r.n, { ...o, caption: `B: ${name(b)} · ${ui.tr({ en: 'head', zh: '头' })} ${r.head}` });
      ui.out('s9-permA', r.permA, r.permA.toExponential(3)); ui.out('s9-permB', r.permB, r.permB.toExponential(3));
      const box = ui.$('s9-terms');
      const want = [...r.A.names, 'scores'];
      if (box.dataset.names !== want.join(',')) {
        box.replaceChildren(...want.map((t) => { const el = document.createElement('pe-heatmap'); el.id = `s9-term-${t}`; el.setAttribute('palette', 'rdbu'); el.setAttribute('size', '200'); return el; }));
        box.dataset.names = want.join(',');
      }
      const label = { content_content: { en: 'content–content', zh: '内容–内容' }, content_position: { en: 'content–position', zh: '内容–位置' }, position_content: { en: 'position–content', zh: '位置–内容' }, position_position: { en: 'position–position', zh: '位置–位置' }, bias: { en: 'bias', zh: '偏置' }, scores: { en: 'sum = scores', zh: '总和 = 分数' } };
      for (const t of want) ui.heat(`s9-term-${t}`, t === 'scores' ? r.A.scores : r.A.terms[t], r.n, r.n, { rowLabels: r.tokens, colLabels: r.tokens, caption: label[t] ?? t });
      if (!r.A.names.length) box.dataset.empty = 'true'; else delete box.dataset.empty;
    },
  },
];
