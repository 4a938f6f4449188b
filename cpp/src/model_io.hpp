// posenc (internal) — shared by the model's loader (model_loader.cpp) and hyperparameters (model_hparams.cpp):
// GGUF key lookup and the `llama.*` hyperparameters.
#pragma once
#include <string>

#include "posenc/gguf.hpp"
#include "posenc/model.hpp"

namespace posenc::detail {
const GgufValue* gguf_find(const GgufHeader& h, const std::string& key);
/// The numeric value of `key`; *fallback when it is absent (null: the key is required). Throws Error naming the key.
double gguf_number(const GgufHeader& h, const std::string& key, const double* fallback = nullptr);
/// Architecture `llama` only; n_vocab is left 0 (the loader takes it from token_embd's shape).
LmHparams hparams_from_gguf(const GgufHeader& h);
}  // namespace posenc::detail
