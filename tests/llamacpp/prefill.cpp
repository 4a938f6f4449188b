// posenc's llama.cpp prefill timer (MIT, part of posenc; llama.cpp itself is fetched and built by scripts/llamacpp.sh
// from the npm package llama.rn@0.12.9 = llama.cpp 6c8dcaa, never committed), for `npm run bench` (tests/bench/model.mjs):
//
//   prefill <file.gguf> <n_tokens> <threads> <runs> [last]
//
// One batch of n_tokens at positions 0 … n − 1 (token ids i mod n_vocab: a prefill's cost does not depend on which
// tokens), n_ctx = n_batch = n_ubatch = n, llama.cpp's defaults otherwise (flash attention auto, F16 KV cache). Logits for
// every position, as posenc's evaluate() computes them, or for the last only with "last" (as llama-server's prompt
// processing). Per run: clear the KV cache, time llama_decode + llama_synchronize. One untimed warm-up run first.
// Prints {"n": n, "threads": t, "ms": [run times]} on stdout.
#include "llama.h"

#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>

static void quiet(lm_ggml_log_level, const char *, void *) {}

int main(int argc, char ** argv) {
    if (argc < 5) { std::fprintf(stderr, "usage: prefill <file.gguf> <n_tokens> <threads> <runs> [last]\n"); return 2; }
    const int n = std::stoi(argv[2]), threads = std::stoi(argv[3]), runs = std::stoi(argv[4]);
    const bool last = argc > 5 && std::strcmp(argv[5], "last") == 0;
    llama_log_set(quiet, nullptr);
    llama_backend_init();
    llama_model_params mp = llama_model_default_params();
    mp.n_gpu_layers = 0;
    llama_model * model = llama_model_load_from_file(argv[1], mp);
    if (!model) { std::fprintf(stderr, "cannot load %s\n", argv[1]); return 1; }
    const int V = llama_vocab_n_tokens(llama_model_get_vocab(model));
    llama_context_params cp = llama_context_default_params();
    cp.n_ctx = n; cp.n_batch = n; cp.n_ubatch = n; cp.n_threads = threads; cp.n_threads_batch = threads;
    llama_context * ctx = llama_init_from_model(model, cp);
    if (!ctx) { std::fprintf(stderr, "cannot create a context\n"); return 1; }
    llama_batch b = llama_batch_init(n, 0, 1);
    for (int i = 0; i < n; ++i) {
        b.token[i] = i % V; b.pos[i] = i; b.n_seq_id[i] = 1; b.seq_id[i][0] = 0; b.logits[i] = !last || i == n - 1;
    }
    b.n_tokens = n;
    std::printf("{\"n\": %d, \"threads\": %d, \"logits\": \"%s\", \"ms\": [", n, threads, last ? "last" : "all");
    for (int r = -1; r < runs; ++r) {
        llama_memory_clear(llama_get_memory(ctx), true);
        const auto t0 = std::chrono::steady_clock::now();
        if (llama_decode(ctx, b) != 0) { std::fprintf(stderr, "decode failed\n"); return 1; }
        llama_synchronize(ctx);
        const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        if (r >= 0) std::printf("%s%.3f", r ? ", " : "", ms);
    }
    std::printf("]}\n");
    llama_batch_free(b);
    llama_free(ctx);
    llama_model_free(model);
    llama_backend_free();
    return 0;
}
