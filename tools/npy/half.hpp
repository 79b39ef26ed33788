// tools/npy/half.hpp — binary16 (float16) conversions on the host, for the tool's commands (show, bench).
#pragma once

#include <cstdint>

namespace vkdml::cli {

/// binary16 bits -> float (exact: every binary16 value is a float; NaN payloads kept).
float half_to_float(uint16_t bits);
/// float -> binary16 bits, rounded to nearest even (overflow gives inf, NaN stays a quiet NaN).
uint16_t float_to_half(float value);

}  // namespace vkdml::cli
