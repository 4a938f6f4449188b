// The config reader's gallery: real config.json files, verbatim (tests/fixtures/configs, sources in SOURCES.md there),
// bundled as text. Each entry: the model's name, where its config.json comes from, and the file's text.
import llama31 from '../../tests/fixtures/configs/Llama-3.1-8B.json?raw';
import deepseek from '../../tests/fixtures/configs/DeepSeek-V3.json?raw';
import gptoss from '../../tests/fixtures/configs/gpt-oss-120b.json?raw';
import gemma3 from '../../tests/fixtures/configs/gemma-3-27b-it.json?raw';
import qwen25vl from '../../tests/fixtures/configs/Qwen2.5-VL-7B-Instruct.json?raw';
import qwen35 from '../../tests/fixtures/configs/Qwen3.5-9B.json?raw';
import phi3 from '../../tests/fixtures/configs/Phi-3-mini-128k-instruct.json?raw';
import exaone from '../../tests/fixtures/configs/EXAONE-4.0-32B.json?raw';
import olmo3 from '../../tests/fixtures/configs/Olmo-3.1-32B-Instruct.json?raw';
import devstral from '../../tests/fixtures/configs/Devstral-Small-2-24B-Instruct.json?raw';
import modernbert from '../../tests/fixtures/configs/ModernBERT-large-zeroshot-v2.0.json?raw';

export const GALLERY = [
  { id: 'llama-3.1-8b', name: 'Llama 3.1 8B', source: 'meta-llama/Llama-3.1-8B', text: llama31 },
  { id: 'deepseek-v3', name: 'DeepSeek-V3', source: 'deepseek-ai/DeepSeek-V3', text: deepseek },
  { id: 'gpt-oss-120b', name: 'gpt-oss-120b', source: 'openai/gpt-oss-120b', text: gptoss },
  { id: 'gemma-3-27b', name: 'Gemma 3 27B', source: 'google/gemma-3-27b-it', text: gemma3 },
  { id: 'qwen2.5-vl-7b', name: 'Qwen2.5-VL 7B', source: 'Qwen/Qwen2.5-VL-7B-Instruct', text: qwen25vl },
  { id: 'qwen3.5-9b', name: 'Qwen3.5 9B', source: 'Qwen/Qwen3.5-9B', text: qwen35 },
  { id: 'phi-3-mini-128k', name: 'Phi-3 mini 128k', source: 'microsoft/Phi-3-mini-128k-instruct', text: phi3 },
  { id: 'exaone-4.0-32b', name: 'EXAONE 4.0 32B', source: 'LGAI-EXAONE/EXAONE-4.0-32B', text: exaone },
  { id: 'olmo-3.1-32b', name: 'OLMo 3.1 32B', source: 'allenai/Olmo-3.1-32B-Instruct', text: olmo3 },
  { id: 'devstral-small-2', name: 'Devstral Small 2', source: 'mistralai/Devstral-Small-2-24B-Instruct-2512', text: devstral },
  { id: 'modernbert-large', name: 'ModernBERT large', source: 'answerdotai/ModernBERT-large (zero-shot fine-tune)', text: modernbert },
];
