// posenc — positional encodings for transformers. Umbrella header of the C++ core.
#pragma once
#include "posenc/absolute.hpp"
#include "posenc/alibi.hpp"
#include "posenc/attention.hpp"
#include "posenc/decay.hpp"
#include "posenc/error.hpp"
#include "posenc/learned.hpp"
#include "posenc/mrope.hpp"
#include "posenc/relative.hpp"
#include "posenc/rope.hpp"
#include "posenc/rope_scaling.hpp"
#include "posenc/sinusoidal.hpp"
#include "posenc/xpos.hpp"
