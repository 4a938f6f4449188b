// What a reader sees in Chinese mode, and the English words in it (issue 12, defect 9). Visible text is every text
// node that is rendered (light DOM and the figures' shadow roots), plus placeholders, titles and aria-labels of
// visible elements; code, formulas (KaTeX), citations (paper titles) and the language button are left out.

// Proper names (schemes, models, papers' authors, libraries, formats) that stay in Latin letters in Chinese text.
export const PROPER_NAMES = new Set(('RoPE ALiBi xPos LLaMA Llama ChatGLM GLM FLOATER DeBERTa EMD Shaw Transformer XL RoFormer ' +
  'BERT WoBERT GPT NeoX Phi T5 TUPE YaRN LongRoPE NTK PI Hugging Face Meta Press Liu Su Abel CAIL SCM posenc WebAssembly ' +
  'SIMD JSON CSV PNG SVG arXiv torchscale wasm NumPy PyTorch NTK-aware ' +
  'OPT Flan Qwen Mistral BLOOM MPT XLNet Gemma Haviv Kazemnejad LEX Ke Peng Proof-pile NTK-by-parts ' +
  'Wan Cosmos FLUX HunyuanVideo SigLIP NaFlex vLLM diffusers ' +
  'KERPLE Sandwich FIRE CoPE PaTH Householder stick-breaking MLP README DeepSeek Golovneva Chi Li Tan Yang NeMo Chen Tancik ' +
  'Python Node npm JAX Pythia Barbero KV RULER Code Rozière ' +
  'TinyStories ReRoPE Leaky Karpathy Apache MIT CDLA Sharing Eldan GGUF Hub raincandy ' +
  'CPU GPU GFLOP safetensors').split(' '));   // units and formats written in Latin letters in Chinese technical prose too
// Hugging Face rope_type values (code: the config's own strings, as in "PI (linear)").
export const ROPE_TYPES = new Set('default linear dynamic yarn longrope llama3'.split(' '));
// Function names written in formulas that are plain text (readouts, captions): math, not English prose.
export const MATH_NAMES = new Set('max min softmax sin cos exp log ln clip elu diag Re Im int ms'.split(' '));

/** Visible text of `page` (a Playwright page) as a list of strings, shadow roots included. */
export function zhVisibleText(page) {
  return page.evaluate(() => {
    const out = [];
    const skip = (el) => el.closest('code, pre, kbd, samp, cite, .katex, .katex-display, .langs');
    const seen = (el) => el.checkVisibility({ checkVisibilityCSS: true, checkOpacity: true });
    const walk = (root) => {
      const w = document.createTreeWalker(root, NodeFilter.SHOW_TEXT | NodeFilter.SHOW_ELEMENT);
      for (let n = w.currentNode; n; n = w.nextNode()) {
        if (n.nodeType === 1) {
          if (n.shadowRoot) walk(n.shadowRoot);
          if (n.nodeType === 1 && !skip(n) && seen(n)) for (const a of ['placeholder', 'title', 'aria-label']) if (n.getAttribute?.(a)) out.push(n.getAttribute(a));
          continue;
        }
        const el = n.parentElement;
        if (!el || skip(el) || !seen(el)) continue;
        const t = n.textContent.trim();
        if (t) out.push(t);
      }
    };
    walk(document.body);
    return out;
  });
}

/**
 * English words in `texts`: [word, the text it is in] for every word of two or more Latin letters that is not a proper
 * name, a math function, one of `code` (e.g. the figures' parameter names and enum values) or an identifier (a name
 * with _ or a digit, camelCase, or a file name: code written inline, e.g. rope_theta, relShift, config.json).
 */
export function englishWords(texts, code = new Set()) {
  const ok = (p) => PROPER_NAMES.has(p) || MATH_NAMES.has(p) || ROPE_TYPES.has(p) || code.has(p) || p.length < 2 || /\d/.test(p);
  const found = new Map();
  for (const text of texts) {
    // Quoted values are literal input, and an error names its parameter as written ("参数错误：rope_theta：…").
    const t = text.replace(/'[^']*'|"[^"]*"|参数错误：[^：\s]+/g, ' ');
    for (const m of t.matchAll(/[A-Za-z][A-Za-z0-9_]*(?:[-'.][A-Za-z0-9_]+)*/g)) {
      const w = m[0];
      if (/[_.\d]|[a-z][A-Z]/.test(w) || PROPER_NAMES.has(w) || w.split('-').every(ok)) continue;
      if (!found.has(w)) found.set(w, text);
    }
  }
  return [...found];
}
