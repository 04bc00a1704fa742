// Constant tables of Go's legacy math/rand generator (see go_rand_tables.cc for origin and licence).
#pragma once

#include <cstdint>

namespace gnomon::bench {

inline constexpr int kGoRngLen = 607;  // length of the additive lagged-Fibonacci register
inline constexpr int kGoRngTap = 273;  // its tap distance

extern const int64_t kGoRngCooked[kGoRngLen];
extern const uint32_t kGoNormKn[128];
extern const float kGoNormWn[128];
extern const float kGoNormFn[128];

}  // namespace gnomon::bench
