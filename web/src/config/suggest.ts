// "Did you mean …?" for key names: the closest candidate within a small edit distance (adjacent swaps count as one).

/** Optimal-string-alignment distance between a and b (three rolling rows: this runs for every key of a config). */
function distance(a: string, b: string): number {
  const m = b.length + 1;
  let prev2 = new Int32Array(m), prev = Int32Array.from({ length: m }, (_, j) => j), cur = new Int32Array(m);
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, prev2[j - 2] + 1);
      cur[j] = v;
    }
    [prev2, prev, cur] = [prev, cur, prev2];
  }
  return prev[b.length];
}

/**
 * Other tools' names of Hugging Face position keys (llama.cpp GGUF metadata / CLI, exllama, Meta's params.json), so a
 * key written the other tool's way gets the HF name suggested.
 */
const ALIASES: Record<string, string> = {
  rope_base: 'rope_theta', rope_freq_base: 'rope_theta', base: 'rope_theta', freq_base: 'rope_theta',
  rope_scaling_type: 'rope_type', scaling_type: 'rope_type', rope_scale: 'factor', scaling_factor: 'factor',
  rope_scaling_factor: 'factor', alpha_value: 'factor', n_ctx_orig: 'original_max_position_embeddings',
  yarn_orig_ctx: 'original_max_position_embeddings', rope_scaling_original_context_length: 'original_max_position_embeddings',
  original_seq_len: 'original_max_position_embeddings', yarn_beta_fast: 'beta_fast', yarn_beta_slow: 'beta_slow',
  yarn_attn_factor: 'attention_factor', yarn_ext_factor: 'attention_factor', rope_dim: 'rotary_dim', n_rot: 'rotary_dim',
  rope_dimension_count: 'rotary_dim', context_length: 'max_position_embeddings', max_seq_len: 'max_position_embeddings',
  n_ctx: 'max_position_embeddings', nope_layer_interval: 'no_rope_layer_interval',
};

/**
 * The candidate `name` stands for: its HF name if it is another tool's alias of a candidate, else the nearest candidate
 * within 1 edit (names under 10 characters) or 2 (longer), case ignored; null otherwise. `aliases: false` for a whole
 * config.json, where other model families use some alias names (GPT-2's n_ctx, MPT's max_seq_len) for their own keys.
 */
export function closest(name: string, candidates: readonly string[], aliases = true): string | null {
  const n = name.toLowerCase();
  if (aliases && ALIASES[n] && candidates.includes(ALIASES[n])) return ALIASES[n];
  const limit = n.length < 10 ? 1 : 2;
  let best: string | null = null;
  let bestD = limit + 1;
  for (const c of candidates) {
    if (Math.abs(c.length - n.length) >= bestD) continue; // the distance is at least the difference in length
    const dd = distance(n, c.toLowerCase());
    if (dd < bestD) [best, bestD] = [c, dd];
  }
  return best;
}
