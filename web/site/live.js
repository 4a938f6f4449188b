// Live numbers in the prose. Every <output data-live="NAME"> is filled by the computation NAME below, which calls the
// posenc package's API (the page itself only formats). An output whose value depends on a figure's parameters lists
// them in data-live-inputs="figure.param …" (or form controls by id) and is recomputed when one changes. Text for people; data-value holds the
// full-precision number for tests. data-digits: significant digits shown (default 4).
import { pageApi } from './compute.js';

const W = { original_max_position_embeddings: 1 };   // ropeFrequencyAnalysis needs a training length; unused here
const last = (a) => a[a.length - 1];
const slowestWavelength = (pe, inv) => last(pe.ropeFrequencyAnalysis({ inv_freq: inv, ...W }).wavelength);
/** Sweep ⟨R_m q, R_n k⟩ for one 2-D pair (θ = inv_freq, default 1) with q at m and k at n. */
const pairScore = (pe, q, k, m, n, inv_freq) => pe.ropeInnerProductSweep({ q, k, head_dim: 2, q_position: m, k_start: n, count: 1,
  ...(inv_freq ? { inv_freq } : {}) })[0];
const ntkParams = (c) => ({ rotary_dim: +c('context-extension.rotary_dim'), rope_theta: +c('context-extension.rope_theta'),
  factor: +c('context-extension.factor') });
const invOf = (pe, c, rope_type) => {
  const { rotary_dim, rope_theta, factor } = ntkParams(c);
  return pe.ropeInvFreqScaled({ rope_type, rotary_dim, rope_theta, ...(rope_type === 'default' ? {} : { factor }) }).inv_freq;
};
// xPos ζ_i: the table at angle 0 (position 0) with the scale exponent c/scale_base = ±1 (centred position ±scale_base).
const xposZeta = (pe, d, i, sign = 1) => pe.xposTables({ rotary_dim: d, positions: [0], centred: [sign * 512], scale_base: 512 }).cos[i];

export const computations = {
  // §2 — the slowest pair's wavelength for the chosen d, base and layout (t2t: ω = base^(−i/(h−1)), exactly 2π·base).
  's2-longest': (pe, c) => {
    const d = +c('sinusoidal.d'), base = +c('sinusoidal.base');
    const inv = c('sinusoidal.layout') === 't2t' ? pe.t2tInvTimescales({ d, max_timescale: base }) : pe.ropeInvFreq({ rotary_dim: d, rope_theta: base });
    return slowestWavelength(pe, inv);
  },
  // §4 — rotation direction: R_1 applied to (1, 0) with θ = 1, and the score of q = (1, 0), k = (0, 1) at m = 1, n = 0.
  'rot-x': (pe) => pe.ropeApply([1, 0], { seq: 1, head_dim: 2, positions: [1], layout: 'interleaved' })[0],
  'rot-y': (pe) => pe.ropeApply([1, 0], { seq: 1, head_dim: 2, positions: [1], layout: 'interleaved' })[1],
  'rot-true': (pe) => pairScore(pe, [1, 0], [0, 1], 1, 0),
  'rot-swapped': (pe) => pairScore(pe, [1, 0], [0, 1], 0, 1),
  'glm-rotary': (pe) => pe.rotaryDim({ head_dim: 128, partial_rotary_factor: 0.5 }),
  // §5 — Su's average (1/(d/2))·Σ_j |S_j| with the source's d = 128, base 10000, at distances 0, 64, 256.
  'su-avg': (pe, c, el) => pe.ropeDecayBound({ rotary_dim: 128, rope_theta: 10000, count: 257 })[+el.dataset.at],
  // Abel step: h = (1, 0, …): the left side Re Σ h_i e^{i r θ_i} at distance r (θ_0 = 1).
  'abel-lhs': (pe, c, el) => pe.ropeInnerProductSweep({ q: [1, 0, 0, 0], k: [1, 0, 0, 0], head_dim: 4, layout: 'interleaved',
    k_start: 0, q_position: +el.dataset.at, count: 1 })[0],
  // d = 512, base 10000: the slowest pair's wavelength, its quarter, and that pair's own score there (≈ 0: a quarter turn).
  'slow-wavelength': (pe) => slowestWavelength(pe, pe.ropeInvFreq({ rotary_dim: 512, rope_theta: 10000 })),
  // A quarter period is the wavelength of a pair turning 4× faster: the package's wavelength of 4·θ_255.
  'slow-quarter': (pe) => slowestWavelength(pe, pe.ropeInvFreq({ rotary_dim: 512, rope_theta: 10000 }).subarray(255).map((t) => 4 * t)),
  'slow-quarter-score': (pe) => {
    const inv = pe.ropeInvFreq({ rotary_dim: 512, rope_theta: 10000 }).subarray(255);
    return pairScore(pe, [1, 0], [1, 0], 0, Math.round(slowestWavelength(pe, inv.map((t) => 4 * t))), inv);
  },
  // §6 — NTK-aware base b·α^(d/(d−2)) against position interpolation and the source's b·α^(2/d).
  'ntk-theta0': (pe, c) => invOf(pe, c, 'ntk')[0],
  'ntk-last': (pe, c) => last(invOf(pe, c, 'ntk')),
  'pi-last': (pe, c) => last(invOf(pe, c, 'linear')),
  'orig-last': (pe, c) => last(invOf(pe, c, 'default')),
  // b·α^(d/(d−2)) from the package: dynamic NTK's base when its stretch (factor·L/L0 − (factor − 1)) equals α,
  // e.g. factor α with L0 = α and L = 2α − 1.
  'ntk-base': (pe, c) => {
    const { rotary_dim, rope_theta, factor: a } = ntkParams(c);
    return pe.dynamicNtkBase({ rotary_dim, rope_theta, factor: a, max_position_embeddings: a, seq_len: 2 * a - 1 });
  },
  'ntk-base-check': (pe, c) => {       // the formula's base fed to plain RoPE gives the API's NTK frequencies
    const { rotary_dim: d, rope_theta: b, factor: a } = ntkParams(c);
    return last(pe.ropeInvFreq({ rotary_dim: d, rope_theta: b * a ** (d / (d - 2)) }));
  },
  'src-ntk-last': (pe, c) => {
    const { rotary_dim: d, rope_theta: b, factor: a } = ntkParams(c);
    return last(pe.ropeInvFreq({ rotary_dim: d, rope_theta: b * a ** (2 / d) }));
  },
  'orig-wavelength': (pe, c) => slowestWavelength(pe, invOf(pe, c, 'default')),
  'ntk-wavelength': (pe, c) => slowestWavelength(pe, invOf(pe, c, 'ntk')),
  // §7 — ALiBi: slopes of 8 heads; bias of the last query of 1025 over the first key (distance 1024), head h.
  'alibi-slope': (pe, c, el) => pe.alibiSlopes(8)[+el.dataset.head],
  'alibi-bias': (pe, c, el) => pe.alibiBias({ num_heads: 8, q_len: 1, k_len: +el.dataset.dist + 1 })[+el.dataset.head * (+el.dataset.dist + 1)],
  // xPos: ζ_i for head_dim 64 (exponent +1), and the reciprocal (exponent −1) that note 004 calls ζ.
  'xpos-zeta': (pe, c, el) => xposZeta(pe, 64, +el.dataset.i),
  'xpos-zeta-inv': (pe, c, el) => xposZeta(pe, 64, +el.dataset.i, -1),
  // §3 — Shaw's value side: position part of the output of the last of 8 tokens under uniform weights, K = 2, a^V = offset.
  'shaw-value': (pe) => pe.shawValues({ weights: new Float32Array(8).fill(1 / 8), table_v: [-2, -1, 0, 1, 2], q_len: 1, k_len: 8, d: 1,
    max_relative_position: 2 })[0],
};

const SUP = '⁰¹²³⁴⁵⁶⁷⁸⁹';

function show(el, v) {
  const digits = +(el.dataset.digits ?? 4);
  el.dataset.value = String(v);
  const sci = Math.abs(v) >= 1e6 || (v !== 0 && Math.abs(v) < 1e-3);
  const text = sci ? v.toExponential(digits - 1).replace(/e([+-])(\d+)/, (_, s, e) => `×10${s === '-' ? '⁻' : ''}${[...e].map((x) => SUP[x]).join('')}`)
    : v.toLocaleString('en-US', { maximumSignificantDigits: digits });
  el.textContent = text.replace(/^-/, '−');
}

function fill(pe, el) {
  const f = computations[el.dataset.live];
  if (!f) throw new Error(`live: unknown computation '${el.dataset.live}'`);
  const control = (input) => {
    const [id, param] = input.split('.'), c = document.getElementById(id);
    if (!c || (param && !(param in c.params))) throw new Error(`live: '${el.dataset.live}' needs ${input}`);
    return param ? c.params[param] : c.value;
  };
  try {
    show(el, f(pe, control, el));
  } catch (e) {      // one failed number must not stop the others: show a dash, keep the reason for tests and readers
    el.textContent = '—'; delete el.dataset.value; el.title = e.message;
    console.error(`live '${el.dataset.live}': ${e.message}`);
  }
}

pageApi().then((pe) => {
  const outputs = [...document.querySelectorAll('output[data-live]')];
  for (const el of outputs) {
    fill(pe, el);
    for (const input of (el.dataset.liveInputs ?? '').split(/\s+/).filter(Boolean)) {
      const [id, param] = input.split('.'), target = document.getElementById(id);
      if (param) {     // the figure's own controls fire figure-change; a page script may set its attributes instead
        target.addEventListener('figure-change', () => fill(pe, el));
        new MutationObserver(() => fill(pe, el)).observe(target, { attributes: true, attributeFilter: [param] });
      }
      else target.addEventListener('input', () => fill(pe, el));
    }
  }
  document.body.dataset.live = 'ready';
});
