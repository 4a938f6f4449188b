// posenc — positional encodings for transformers. Umbrella header of the C++ core.
#pragma once
#include "posenc/attention.hpp"
#include "posenc/decay.hpp"
#include "posenc/error.hpp"
#include "posenc/rope.hpp"
#include "posenc/sinusoidal.hpp"
