// §6's real-model part (sections/s6-real-model.html): the numbers its prose quotes and the continuations, from the
// figures' build-time data (model-data.gen.js, made by scripts/model-data.mjs); and where the model files come from when
// a figure computes live: the local copy where the server announces one (npm start and the tests serve ../shared/models
// at /models/), else the Hugging Face Hub.
import data from '../src/figures/defs/model-data.gen.js';
import { fmtPpl as fmt } from '../src/figures/defs/model-methods.js';
import { onLang } from './state.js';

const MODEL = { '656k': 'tinystories-656k', '260k': 'stories260k' };
const LABEL = { original: ['original RoPE', '原始 RoPE'], yarn: ['YaRN ×8', 'YaRN ×8'], rerope: ['ReRoPE (window 256)', 'ReRoPE（窗口 256）'] };

function fill(lang) {
  const dl = document.getElementById('model-continuation');
  if (!dl || !data) return;
  // <span data-model="656k-yarn-past">: the perplexity of that model, method and range
  for (const el of document.querySelectorAll('[data-model]')) {
    const [m, method, part] = el.dataset.model.split('-');
    const v = data.models[MODEL[m]]?.methods[method]?.[part]?.ppl;
    if (v !== undefined) el.textContent = fmt(v);
  }
  const m = data.models['tinystories-656k'];
  dl.replaceChildren();
  for (const [method, text] of Object.entries(m.continuation)) {
    const dt = document.createElement('dt'), dd = document.createElement('dd');
    dt.textContent = LABEL[method][lang === 'zh' ? 1 : 0];
    // the model's own words (English whatever the page's language): literal output, set as code
    const prefix = Object.assign(document.createElement('code'), { className: 'prefix', textContent: `…${m.prefixTail.slice(-60)}` });
    dd.append(prefix, Object.assign(document.createElement('code'), { className: 'generated', textContent: text.replace(/<\|[a-z_]+\|>/g, ' ¶ ') }));
    dl.append(dt, dd);
  }
}

// A server with a local copy of the models says so in a header of its pages (scripts/serve.mjs: x-posenc-models, the
// folder's URL); any other host gets one HEAD request of the page itself and the Hub.
async function localModels() {
  let folder = null;
  try {
    folder = (await fetch(location.href, { method: 'HEAD' })).headers.get('x-posenc-models');
  } catch { return; }
  if (!folder) return;
  const url = new URL(folder, location.href).href;
  for (const id of ['model-loss', 'model-attention']) document.getElementById(id)?.setAttribute('models', url);
}

fill(document.documentElement.lang);
onLang((lang) => fill(lang));
localModels();
