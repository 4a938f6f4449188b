// posenc's differential-test harness around llama.cpp's own code (MIT, part of posenc; llama.cpp itself is not in
// this repository: scripts/llamacpp.sh fetches it from the npm package llama.rn@0.12.9 = llama.cpp commit 6c8dcaa,
// symbols renamed lm_ggml_* / LM_GGML_*, and links this file against it).
//
//   harness <file.gguf> [n_ctx]       (n_ctx default: llama_context_default_params().n_ctx; 0 = the trained context)
//
// prints one JSON object on stdout:
//   - what llama.cpp's loader makes of the header: llama_model_loader + llama_model_create + the architecture's own
//     load_hparams / load_arch_hparams (src/llama-model.cpp, src/models/<arch>.cpp at 6c8dcaa), no tensors loaded;
//   - the context parameters llama_context's constructor derives for n_ctx (0 = the trained context, as `-c 0`):
//     that derivation needs a whole context (weights, memory) to run, so it is copied below from
//     src/llama-context.cpp at 6c8dcaa, lines 112-115, 130-136, 180-231 and 285-291;
//   - per layer: sliding or not (llama_hparams::is_swa), recurrent or not (llama_hparams::is_recr), whether the
//     architecture's graph rotates q/k there (the rule of its graph code, cited per architecture in use_rope()), and the
//     arguments that graph passes to ggml_rope_ext / ggml_rope_multi (llama_model::get_rope_freq_base / _scale for the
//     layer, the rope factors tensor llama_model::get_rope_factors would pick, read from the file);
//   - for each distinct set of those arguments: ggml's CPU ggml_rope_ext (ggml_rope_multi for M-RoPE) run on a
//     [head_dim, 2 heads, 64 positions] q, head 0 all ones, head 1 seeded uniform(-1, 1) values (printed too), at 64
//     positions from 0 to n_ctx_train - 1 (both ends included), the output as float32 values.
#include "llama.h"
#include "llama-arch.h"
#include "llama-cparams.h"
#include "llama-hparams.h"
#include "llama-model-loader.h"
#include "llama-model.h"
#include "ggml.h"
#include "ggml-cpu.h"
#include "gguf.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

static void quiet(lm_ggml_log_level, const char *, void *) {}

// Whether the architecture's graph rotates q/k in layer il: the condition its build code tests, at 6c8dcaa.
static bool use_rope(llm_arch arch, const llama_hparams & hp, uint32_t il, std::string & why) {
    if (hp.is_recr(il)) { why = "recurrent layer (llama_hparams::is_recr): no attention, no RoPE"; return false; }
    switch (arch) {
        case LLM_ARCH_LLAMA4:   // src/models/llama4.cpp:145
            why = "models/llama4.cpp:145 use_rope = n_no_rope_layer_step > 0 && (il + 1) % n_no_rope_layer_step != 0";
            return hp.n_no_rope_layer_step > 0 && (il + 1) % hp.n_no_rope_layer_step != 0;
        case LLM_ARCH_SMOLLM3:  // src/models/smollm3.cpp:69 (n_no_rope_layer_step = 4 set in load_arch_hparams, :5)
            why = "models/smollm3.cpp:69 use_rope = (il + 1) % n_no_rope_layer_step != 0";
            return (il + 1) % hp.n_no_rope_layer_step != 0;
        case LLM_ARCH_SMALLTHINKER:  // src/models/smallthinker.cpp:108
            why = "models/smallthinker.cpp:108 use_rope = n_no_rope_layer_step == n_layer || il % n_no_rope_layer_step != 0";
            return hp.n_no_rope_layer_step == hp.n_layer() || il % hp.n_no_rope_layer_step != 0;
        case LLM_ARCH_AFMOE:    // src/models/afmoe.cpp:137
            why = "models/afmoe.cpp:137 use_rope = n_no_rope_layer_step > 0 && (il + 1) % n_no_rope_layer_step != 0";
            return hp.n_no_rope_layer_step > 0 && (il + 1) % hp.n_no_rope_layer_step != 0;
        case LLM_ARCH_COHERE2:  // src/models/cohere2.cpp:91
            why = "models/cohere2.cpp:91 rope only if is_swa(il)";
            return hp.is_swa(il);
        case LLM_ARCH_EXAONE4:  // src/models/exaone4.cpp:116
            why = "models/exaone4.cpp:116 use_rope = is_swa(il) || swa_type == NONE";
            return hp.is_swa(il) || hp.swa_type == LLAMA_SWA_TYPE_NONE;
        case LLM_ARCH_STARCODER: // src/models/starcoder.cpp:75: learned positions (pos_embd), the graph calls no rope
        case LLM_ARCH_BERT:      // src/models/bert.cpp:101 (pos_embd) and :137 (rope only for nomic / jina-v3)
            why = "learned absolute positions (pos_embd): the graph calls no ggml_rope";
            return false;
        default:
            break;
    }
    if (hp.rope_type == LLAMA_ROPE_TYPE_NONE) { why = "llama_model_rope_type: NONE"; return false; }
    why = "every attention layer";
    return true;
}

struct RopeArgs {
    uint32_t n_rot, head_dim;
    float freq_base, freq_scale, ext_factor, attn_factor, beta_fast, beta_slow;
    int n_ctx_orig;
    std::string factors;  // "", "rope_freqs", "rope_factors_long", "rope_factors_short"
    std::string key() const {
        char b[256];
        snprintf(b, sizeof b, "%u/%u/%.9g/%.9g/%.9g/%.9g/%.9g/%.9g/%d/%s", n_rot, head_dim, freq_base, freq_scale, ext_factor,
                 attn_factor, beta_fast, beta_slow, n_ctx_orig, factors.c_str());
        return b;
    }
};

static void print_floats(const float * v, size_t n) {
    putchar('[');
    for (size_t i = 0; i < n; i++) printf("%s%.9g", i ? "," : "", v[i]);
    putchar(']');
}

int main(int argc, char ** argv) {
    if (argc < 2) { fprintf(stderr, "usage: harness file.gguf [n_ctx]\n"); return 2; }
    const std::string path = argv[1];
    // n_ctx: the argument (0 = the trained context, as `-c 0`), else llama_context_default_params().n_ctx (512)
    const uint32_t n_ctx_arg = argc > 2 ? (uint32_t) atoi(argv[2]) : llama_context_default_params().n_ctx;
    if (!getenv("HARNESS_VERBOSE")) { llama_log_set(quiet, nullptr); lm_ggml_log_set(quiet, nullptr); }

    // The fixtures hold the RoPE-relevant keys only. A key the architecture's loader requires but the file lacks (norm
    // epsilons, SSM sizes, …) is supplied as a metadata override (llama_model_kv_override, the loader's own mechanism)
    // with a neutral value, and listed in "filled_keys"; the test checks that none of them bears on RoPE.
    std::unique_ptr<llama_model> model;
    std::vector<llama_model_kv_override> ovr;
    std::map<std::string, int> tries;
    for (;;) {
        std::vector<llama_model_kv_override> o = ovr;
        o.push_back({});
        o.back().key[0] = 0;
        try {
            std::vector<std::string> splits;
            llama_model_params mp = llama_model_default_params();
            llama_model_loader ml(nullptr, nullptr, nullptr, path, splits, nullptr, LLAMA_LOAD_MODE_NONE, false, true, false, o.data(), nullptr);
            model.reset(llama_model_create(ml, mp));
            auto * base = dynamic_cast<llama_model_base *>(model.get());
            if (!base) throw std::runtime_error("model does not implement llama_model_base");
            base->load_hparams(ml);   // llama.cpp's own loader: common keys, then the architecture's load_arch_hparams
            break;
        } catch (const std::exception & e) {
            const std::string msg = e.what(), tag = "key not found in model: ";
            const size_t at = msg.find(tag);
            if (at == std::string::npos || msg.find("array key") != std::string::npos) {
                printf("{\"error\":\"%s\"}\n", msg.c_str());
                return 0;
            }
            const std::string k = msg.substr(at + tag.size());
            const int n = tries[k]++;
            if (n >= 3 || k.size() >= 127) { printf("{\"error\":\"%s\"}\n", msg.c_str()); return 0; }
            llama_model_kv_override v{};
            snprintf(v.key, sizeof v.key, "%s", k.c_str());
            if (n == 0) { v.tag = LLAMA_KV_OVERRIDE_TYPE_INT; v.val_i64 = 1; }
            else if (n == 1) { v.tag = LLAMA_KV_OVERRIDE_TYPE_FLOAT; v.val_f64 = 1e-6; }
            else { v.tag = LLAMA_KV_OVERRIDE_TYPE_BOOL; v.val_bool = false; }
            bool replaced = false;
            for (auto & x : ovr) if (k == x.key) { x = v; replaced = true; }
            if (!replaced) ovr.push_back(v);
        }
    }
    const llama_hparams & hp = model->hparams;

    // llama_context's derivation (src/llama-context.cpp at 6c8dcaa), with llama_context_default_params()' values for
    // the user options (rope_freq_base/scale 0, yarn_* -1, yarn_orig_ctx 0, rope_scaling_type UNSPECIFIED, 1 sequence)
    llama_cparams cp{};
    cp.n_ctx = n_ctx_arg == 0 ? hp.n_ctx_train : n_ctx_arg;                                            // :130
    cp.n_ctx = LM_GGML_PAD(cp.n_ctx, 256);                                                               // :285
    cp.n_ctx_seq = cp.n_ctx;                                                                             // :288 (n_seq_max 1)
    cp.rope_freq_base = hp.rope_freq_base_train;                                                         // :131
    cp.rope_freq_scale = hp.rope_freq_scale_train;                                                       // :132
    cp.n_ctx_orig_yarn = hp.n_ctx_orig_yarn != 0 ? hp.n_ctx_orig_yarn : hp.n_ctx_train;                  // :134
    cp.yarn_ext_factor = hp.yarn_ext_factor; cp.yarn_attn_factor = hp.yarn_attn_factor;                  // :112-113
    cp.yarn_beta_fast = hp.yarn_beta_fast; cp.yarn_beta_slow = hp.yarn_beta_slow;                        // :114-115
    const llama_rope_scaling_type st = hp.rope_scaling_type_train;                                       // :180-183
    if (st == LLAMA_ROPE_SCALING_TYPE_NONE) cp.rope_freq_scale = 1.0f;                                   // :186
    if (cp.yarn_ext_factor < 0.0f) cp.yarn_ext_factor = st == LLAMA_ROPE_SCALING_TYPE_YARN ? 1.0f : 0.0f; // :190
    if (cp.yarn_ext_factor != 0) {                                                                       // :194-229
        auto get_mscale = [](float scale, float mscale) { return scale <= 1.0f ? 1.0f : (0.1f * mscale * logf(scale) + 1.0f); };
        const float factor = 1.0f / cp.rope_freq_scale;
        if (hp.rope_yarn_log_mul != 0.0f) {
            float mscale = 1.0f;
            const float mscale_all_dims = hp.rope_yarn_log_mul;
            if (model->arch == LLM_ARCH_DEEPSEEK2 && mscale_all_dims != 1.0f) mscale = mscale_all_dims;
            cp.yarn_attn_factor = get_mscale(factor, mscale) / get_mscale(factor, mscale_all_dims);
        } else {
            cp.yarn_attn_factor = get_mscale(factor, 1.0f);
        }
        cp.yarn_attn_factor *= 1.0f / (1.0f + 0.1f * logf(factor));
    }
    cp.yarn_attn_factor *= hp.rope_attn_factor;                                                          // :231

    // the rope factor tensors, read from the file (header-only fixtures carry them with data)
    lm_ggml_context * tctx = nullptr;
    lm_gguf_init_params gp = { false, &tctx };
    lm_gguf_context * g = lm_gguf_init_from_file(path.c_str(), gp);
    auto tensor_f32 = [&](const char * name) -> std::vector<float> {
        if (!tctx) return {};
        lm_ggml_tensor * t = lm_ggml_get_tensor(tctx, name);
        if (!t || t->type != LM_GGML_TYPE_F32) return {};
        const float * d = (const float *) t->data;
        return std::vector<float>(d, d + lm_ggml_nelements(t));
    };
    std::map<std::string, std::vector<float>> factor_data;
    for (const char * n : { "rope_freqs.weight", "rope_factors_long.weight", "rope_factors_short.weight" }) factor_data[n] = tensor_f32(n);

    printf("{\"architecture\":\"%s\",\"rope_type\":%d,\"n_layer\":%u,\"n_ctx_train\":%u,\"n_embd\":%u,", llm_arch_name(model->arch),
           (int) hp.rope_type, hp.n_layer(), hp.n_ctx_train, hp.n_embd);
    printf("\"n_rot\":%u,\"n_rot_swa\":%u,\"n_embd_head_k\":%u,\"n_embd_head_k_swa\":%u,", hp.n_rot_full, hp.n_rot_swa, hp.n_embd_head_k_full, hp.n_embd_head_k_swa);
    printf("\"rope_freq_base_train\":%.9g,\"rope_freq_base_train_swa\":%.9g,\"rope_freq_scale_train\":%.9g,\"rope_freq_scale_train_swa\":%.9g,",
           hp.rope_freq_base_train, hp.rope_freq_base_train_swa, hp.rope_freq_scale_train, hp.rope_freq_scale_train_swa);
    printf("\"rope_scaling_type_train\":%d,\"n_ctx_orig_yarn\":%u,\"rope_attn_factor\":%.9g,\"rope_yarn_log_mul\":%.9g,", (int) hp.rope_scaling_type_train,
           hp.n_ctx_orig_yarn, hp.rope_attn_factor, hp.rope_yarn_log_mul);
    printf("\"yarn_ext_factor\":%.9g,\"yarn_attn_factor\":%.9g,\"yarn_beta_fast\":%.9g,\"yarn_beta_slow\":%.9g,\"swa_type\":%d,\"n_swa\":%u,",
           hp.yarn_ext_factor, hp.yarn_attn_factor, hp.yarn_beta_fast, hp.yarn_beta_slow, (int) hp.swa_type, hp.n_swa);
    printf("\"filled_keys\":[");
    for (size_t i = 0; i < ovr.size(); i++) printf("%s\"%s\"", i ? "," : "", ovr[i].key);
    printf("],");
    printf("\"rope_sections\":[%d,%d,%d,%d],\"n_no_rope_layer_step\":%u,", hp.rope_sections[0], hp.rope_sections[1], hp.rope_sections[2],
           hp.rope_sections[3], hp.n_no_rope_layer_step);
    printf("\"cparams\":{\"n_ctx\":%u,\"n_ctx_seq\":%u,\"rope_freq_base\":%.9g,\"rope_freq_scale\":%.9g,\"n_ctx_orig_yarn\":%u,"
           "\"yarn_ext_factor\":%.9g,\"yarn_attn_factor\":%.9g,\"yarn_beta_fast\":%.9g,\"yarn_beta_slow\":%.9g},",
           cp.n_ctx, cp.n_ctx_seq, cp.rope_freq_base, cp.rope_freq_scale, cp.n_ctx_orig_yarn, cp.yarn_ext_factor, cp.yarn_attn_factor,
           cp.yarn_beta_fast, cp.yarn_beta_slow);

    // per layer
    std::vector<RopeArgs> runs;
    std::map<std::string, int> run_of;
    printf("\"layers\":[");
    for (uint32_t il = 0; il < hp.n_layer(); il++) {
        std::string why;
        const bool rope = hp.rope_type != LLAMA_ROPE_TYPE_NONE && use_rope(model->arch, hp, il, why);
        int run = -1;
        RopeArgs a{};
        if (rope) {
            a.n_rot = hp.n_rot(il); a.head_dim = hp.n_embd_head_k(il);
            a.freq_base = model->get_rope_freq_base(cp, il); a.freq_scale = model->get_rope_freq_scale(cp, il);
            a.ext_factor = cp.yarn_ext_factor; a.attn_factor = cp.yarn_attn_factor;
            a.beta_fast = cp.yarn_beta_fast; a.beta_slow = cp.yarn_beta_slow; a.n_ctx_orig = (int) cp.n_ctx_orig_yarn;
            if (model->arch == LLM_ARCH_OLMO2 && hp.is_swa(il)) {
                // src/models/olmo2.cpp:120-133: sliding layers rotate with freq_scale 1, ext_factor 0, attn_factor 1
                a.freq_scale = 1.0f; a.ext_factor = 0.0f; a.attn_factor = 1.0f;
            }
            if (model->arch == LLM_ARCH_GEMMA3 && hp.swa_type == LLAMA_SWA_TYPE_NONE) {
                // src/models/gemma3.cpp:113-121: without sliding layers the graph passes cparams' base and scale
                a.freq_base = cp.rope_freq_base; a.freq_scale = cp.rope_freq_scale;
            }
            // llama_model::get_rope_factors (src/llama-model.cpp:2037-2050): rope_freqs when present, else long when
            // n_ctx_seq > n_ctx_orig_yarn, else short (null when the file has none of them)
            if (!factor_data["rope_freqs.weight"].empty()) a.factors = "rope_freqs.weight";
            else if (cp.n_ctx_seq > hp.n_ctx_orig_yarn) a.factors = factor_data["rope_factors_long.weight"].empty() ? "" : "rope_factors_long.weight";
            else a.factors = factor_data["rope_factors_short.weight"].empty() ? "" : "rope_factors_short.weight";
            auto it = run_of.find(a.key());
            if (it == run_of.end()) { run = (int) runs.size(); run_of[a.key()] = run; runs.push_back(a); } else run = it->second;
        } else if (why.empty()) {
            why = "llama_model_rope_type: NONE";
        }
        printf("%s{\"il\":%u,\"is_swa\":%s,\"is_recr\":%s,\"rope\":%s,\"why\":\"%s\",\"run\":%d}", il ? "," : "", il, hp.is_swa(il) ? "true" : "false",
               hp.is_recr(il) ? "true" : "false", rope ? "true" : "false", why.c_str(), run);
    }
    printf("],");

    // ggml's CPU RoPE for each distinct argument set
    const int NP = 64, NH = 2;
    std::vector<int> pos(NP);
    for (int i = 0; i < NP; i++) pos[i] = (int) llround((double) i * (hp.n_ctx_train - 1) / (NP - 1));
    printf("\"positions\":[");
    for (int i = 0; i < NP; i++) printf("%s%d", i ? "," : "", pos[i]);
    printf("],\"runs\":[");
    const bool multi = hp.rope_type == LLAMA_ROPE_TYPE_MROPE || hp.rope_type == LLAMA_ROPE_TYPE_IMROPE;
    for (size_t r = 0; r < runs.size(); r++) {
        const RopeArgs & a = runs[r];
        lm_ggml_init_params ip = { (size_t) 64 << 20, nullptr, false };
        lm_ggml_context * ctx = lm_ggml_init(ip);
        lm_ggml_tensor * q = lm_ggml_new_tensor_3d(ctx, LM_GGML_TYPE_F32, a.head_dim, NH, NP);
        float * qd = (float *) q->data;
        uint64_t s = 0x9E3779B97F4A7C15ull;
        for (int p = 0; p < NP; p++)
            for (uint32_t i = 0; i < a.head_dim; i++) {
                qd[(p * NH + 0) * a.head_dim + i] = 1.0f;
                s = s * 6364136223846793005ull + 1442695040888963407ull;
                qd[(p * NH + 1) * a.head_dim + i] = (float) ((double) (s >> 40) / (double) (1ull << 24) * 2.0 - 1.0);
            }
        std::vector<float> q_in(qd, qd + a.head_dim * NH * NP);
        lm_ggml_tensor * ptens = lm_ggml_new_tensor_1d(ctx, LM_GGML_TYPE_I32, NP * (multi ? 4 : 1));
        int32_t * pd = (int32_t *) ptens->data;
        // text tokens: the same position in the t, h, w sections, 0 in the 4th (llama_batch's text positions)
        for (int k = 0; k < (multi ? 4 : 1); k++)
            for (int p = 0; p < NP; p++) pd[k * NP + p] = k < 3 ? pos[p] : 0;
        lm_ggml_tensor * ff = nullptr;
        if (!a.factors.empty()) {
            const auto & v = factor_data[a.factors];
            ff = lm_ggml_new_tensor_1d(ctx, LM_GGML_TYPE_F32, (int64_t) v.size());
            memcpy(ff->data, v.data(), v.size() * sizeof(float));
        }
        lm_ggml_tensor * out;
        if (multi) {
            int sections[4] = { hp.rope_sections[0], hp.rope_sections[1], hp.rope_sections[2], hp.rope_sections[3] };
            out = lm_ggml_rope_multi(ctx, q, ptens, ff, a.n_rot, sections, hp.rope_type, a.n_ctx_orig, a.freq_base, a.freq_scale,
                                     a.ext_factor, a.attn_factor, a.beta_fast, a.beta_slow);
        } else {
            out = lm_ggml_rope_ext(ctx, q, ptens, ff, a.n_rot, hp.rope_type, a.n_ctx_orig, a.freq_base, a.freq_scale, a.ext_factor,
                                   a.attn_factor, a.beta_fast, a.beta_slow);
        }
        lm_ggml_cgraph * gf = lm_ggml_new_graph(ctx);
        lm_ggml_build_forward_expand(gf, out);
        lm_ggml_graph_compute_with_ctx(ctx, gf, 1);
        printf("%s{\"n_rot\":%u,\"head_dim\":%u,\"mode\":%d,\"freq_base\":%.9g,\"freq_scale\":%.9g,\"ext_factor\":%.9g,\"attn_factor\":%.9g,"
               "\"beta_fast\":%.9g,\"beta_slow\":%.9g,\"n_ctx_orig\":%d,\"factors\":\"%s\",\"q\":", r ? "," : "", a.n_rot, a.head_dim, (int) hp.rope_type,
               a.freq_base, a.freq_scale, a.ext_factor, a.attn_factor, a.beta_fast, a.beta_slow, a.n_ctx_orig, a.factors.c_str());
        print_floats(q_in.data(), q_in.size());
        printf(",\"out\":");
        print_floats((const float *) out->data, q_in.size());
        printf("}");
        lm_ggml_free(ctx);
    }
    printf("]}\n");
    if (g) lm_gguf_free(g);
    if (tctx) lm_ggml_free(tctx);
    return 0;
}
