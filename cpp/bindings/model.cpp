// Embind bindings of the language model (cpp/src/model_*.cpp). Models and sessions live in C++ and are named by
// integer handles (0 is never one); the TS layer (web/src/model.ts) frees them. File bytes, token ids and results
// pass by address in wasm memory (common.hpp's zero-copy convention); hyperparameters and RoPE options as objects.
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "common.hpp"
#include "posenc/model.hpp"

using emscripten::val;
using namespace posenc;

namespace {
using namespace posenc::bindings;

std::map<int, std::shared_ptr<const LmModel>> models;
std::map<int, std::unique_ptr<LmSession>> sessions;
int next_handle = 1;

double num(const val& o, const char* k, double fallback) {
  const val v = o[k];
  return v.isNumber() ? v.as<double>() : fallback;
}
int integer(const val& o, const char* k, int fallback) {
  const double d = num(o, k, fallback);
  if (!(d >= -2147483648.0 && d <= 2147483647.0 && std::floor(d) == d)) detail::fail(k, "must be an integer (got " + detail::format_number(d) + ")");
  return static_cast<int>(d);
}

val describe(int handle, const LmModel& m) {
  val o = val::object();
  o.set("handle", handle);
  const LmHparams& hp = m.hp;
  val h = val::object();
  h.set("arch", hp.arch);
  h.set("n_layer", hp.n_layer);
  h.set("n_embd", hp.n_embd);
  h.set("n_head", hp.n_head);
  h.set("n_head_kv", hp.n_head_kv);
  h.set("head_dim", hp.head_dim);
  h.set("n_ff", hp.n_ff);
  h.set("n_vocab", hp.n_vocab);
  h.set("rotary_dim", hp.rotary_dim);
  h.set("rms_eps", hp.rms_eps);
  h.set("rope_theta", hp.rope_theta);
  h.set("n_ctx_train", hp.n_ctx_train);
  h.set("interleaved", hp.interleaved);
  h.set("position", std::string(lm_position_name(hp.position)));
  if (hp.position == LmPosition::learned) h.set("n_positions", hp.n_positions);
  if (hp.position == LmPosition::t5) h.set("t5_num_buckets", hp.t5_num_buckets), h.set("t5_max_distance", hp.t5_max_distance);
  if (hp.position == LmPosition::xpos) h.set("xpos_scale_base", hp.xpos_scale_base);
  if (hp.position == LmPosition::sinusoidal) h.set("sinusoid_base", hp.sinusoid_base);
  if (hp.position == LmPosition::kerple) h.set("kerple_eps", hp.kerple_eps);
  o.set("hparams", h);
  o.set("n_params", double(m.n_params));
  o.set("tied", m.tied);
  const LmVocab& v = m.vocab;
  if (!v.tokens.empty()) {
    val voc = val::object();
    voc.set("model", v.model);
    voc.set("tokens", strings(v.tokens));
    voc.set("scores", f32(v.scores));
    voc.set("types", i32(v.types));
    voc.set("bos", v.bos);
    voc.set("eos", v.eos);
    voc.set("unk", v.unk);
    voc.set("add_bos", v.add_bos);
    voc.set("add_space_prefix", v.add_space_prefix);
    o.set("vocab", voc);
  }
  return o;
}

val keep(LmModel&& m) {
  const int h = next_handle++;
  auto p = std::make_shared<const LmModel>(std::move(m));
  models[h] = p;
  return describe(h, *p);
}

val lm_from_gguf_js(std::uintptr_t bytes, double n) {
  return guarded([&] { return keep(lm_from_gguf(at<const std::uint8_t>(bytes), static_cast<std::size_t>(n))); });
}

val lm_from_safetensors_js(std::uintptr_t bytes, double n, val hp_js) {
  return guarded([&] {
    LmHparams hp;
    hp.n_layer = integer(hp_js, "n_layer", 0);
    hp.n_embd = integer(hp_js, "n_embd", 0);
    hp.n_head = integer(hp_js, "n_head", 0);
    hp.n_head_kv = integer(hp_js, "n_head_kv", hp.n_head);
    hp.head_dim = integer(hp_js, "head_dim", hp.n_head ? hp.n_embd / hp.n_head : 0);
    hp.n_ff = integer(hp_js, "n_ff", 0);
    hp.n_vocab = integer(hp_js, "n_vocab", 0);
    const val pos = hp_js["position"];
    hp.position = pos.isString() ? lm_position_from_name(pos.as<std::string>()) : LmPosition::rope;
    const bool rotary = hp.position == LmPosition::rope || hp.position == LmPosition::xpos;
    hp.rotary_dim = integer(hp_js, "rotary_dim", rotary ? hp.head_dim : 0);
    hp.rms_eps = num(hp_js, "rms_eps", 1e-6);
    hp.rope_theta = num(hp_js, "rope_theta", 10000);
    hp.n_ctx_train = integer(hp_js, "n_ctx_train", 0);
    hp.interleaved = hp_js["interleaved"].isTrue();  // Hugging Face checkpoints pair (i, i + d/2); xPos (2i, 2i + 1)
    hp.n_positions = integer(hp_js, "n_positions", 0);
    hp.t5_num_buckets = integer(hp_js, "t5_num_buckets", 32);
    hp.t5_max_distance = integer(hp_js, "t5_max_distance", 128);
    hp.xpos_scale_base = num(hp_js, "xpos_scale_base", 512);
    hp.sinusoid_base = num(hp_js, "sinusoid_base", 10000);
    hp.kerple_eps = num(hp_js, "kerple_eps", 0.01);
    return keep(lm_from_safetensors(at<const std::uint8_t>(bytes), static_cast<std::size_t>(n), hp));
  });
}

val lm_free_js(int handle) {
  models.erase(handle);
  return val::undefined();
}

val lm_session_js(int model, val inv_freq, val o) {
  return guarded([&] {
    const auto it = models.find(model);
    if (it == models.end()) detail::fail("model", "freed");
    LmRope r;
    r.inv_freq = from_js<double>(inv_freq);
    r.attention_factor = num(o, "attention_factor", 1);
    r.interleaved = o["interleaved"].as<bool>();
    r.rerope_window = integer(o, "rerope_window", 0);
    r.rerope_leaky = num(o, "rerope_leaky", 0);
    r.logn_base = num(o, "logn_base", 0);
    r.position_offset = num(o, "position_offset", 0);
    LmProbe p;
    p.layer = integer(o, "probe_layer", -1);
    p.head = integer(o, "probe_head", 0);
    p.row_begin = integer(o, "row_begin", 0);
    p.row_end = integer(o, "row_end", 0);
    p.gauge_begin = integer(o, "gauge_begin", 0);
    p.gauge_end = integer(o, "gauge_end", 0);
    p.far = integer(o, "far", 512);
    p.near = integer(o, "near", 32);
    const int h = next_handle++;
    sessions[h] = std::make_unique<LmSession>(it->second, std::move(r), integer(o, "capacity", 0), p);
    return val(h);
  });
}

val lm_feed_js(int session, std::uintptr_t ids, int n, std::uintptr_t targets, std::uintptr_t nll, std::uintptr_t hit,
               std::uintptr_t logits) {
  return guarded([&] {
    const auto it = sessions.find(session);
    if (it == sessions.end()) detail::fail("session", "freed");
    it->second->feed(at<const int>(ids), n, targets ? at<const int>(targets) : nullptr, nll ? at<float>(nll) : nullptr,
                     hit ? at<std::uint8_t>(hit) : nullptr, logits ? at<float>(logits) : nullptr);
    return val::undefined();
  });
}

val lm_probe_js(int session) {
  return guarded([&] {
    const auto it = sessions.find(session);
    if (it == sessions.end()) detail::fail("session", "freed");
    const LmSession& s = *it->second;
    val o = val::object();
    o.set("rows", f32(s.attention_rows()));
    o.set("far", f64(s.far_mass()));
    o.set("near", f64(s.near_mass()));
    o.set("queries", s.gauge_queries());
    o.set("n_past", s.n_past());
    return o;
  });
}

val lm_session_free_js(int session) {
  sessions.erase(session);
  return val::undefined();
}
}  // namespace

EMSCRIPTEN_BINDINGS(posenc_model) {
  emscripten::function("lmFromGguf", &lm_from_gguf_js);
  emscripten::function("lmFromSafetensors", &lm_from_safetensors_js);
  emscripten::function("lmFree", &lm_free_js);
  emscripten::function("lmSession", &lm_session_js);
  emscripten::function("lmFeed", &lm_feed_js);
  emscripten::function("lmProbe", &lm_probe_js);
  emscripten::function("lmSessionFree", &lm_session_free_js);
}
