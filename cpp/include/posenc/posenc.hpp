// posenc — positional encodings for transformers. Umbrella header of the C++ core.
#pragma once
#include "posenc/absolute.hpp"
#include "posenc/attention.hpp"
#include "posenc/error.hpp"
#include "posenc/learned.hpp"
#include "posenc/relative.hpp"
#include "posenc/rope.hpp"
#include "posenc/sinusoidal.hpp"
