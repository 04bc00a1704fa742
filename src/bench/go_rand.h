// A bit-exact port of Go's legacy math/rand generator (the rngSource behind rand.Seed and the
// package-level rand.* functions, Go 1.0 through 1.23 semantics). TSBS draws every random decision
// from that one stream, so reproducing its output byte for byte needs the same stream, consumed by the
// same calls in the same order. Algorithms follow docs/bench.md and the TSBS workload spec, Appendix A.
//
// Not thread-safe: one GoRand per simulation.
#pragma once

#include <cstdint>

#include "src/bench/go_rand_tables.h"

namespace gnomon::bench {

class GoRand {
 public:
  explicit GoRand(int64_t seed) { Seed(seed); }

  // Go's rngSource.Seed: Park-Miller seeding of the 607-word register XORed with the cooked table.
  void Seed(int64_t seed);

  // Next raw 64-bit output of the additive generator.
  uint64_t Uint64() {
    if (--tap_ < 0) tap_ += kGoRngLen;
    if (--feed_ < 0) feed_ += kGoRngLen;
    uint64_t x = static_cast<uint64_t>(vec_[feed_]) + static_cast<uint64_t>(vec_[tap_]);
    vec_[feed_] = static_cast<int64_t>(x);
    return x;
  }
  int64_t Int63() { return static_cast<int64_t>(Uint64() & kMask63); }
  uint32_t Uint32() { return static_cast<uint32_t>(Int63() >> 31); }
  int32_t Int31() { return static_cast<int32_t>(Int63() >> 32); }

  // Uniform in [0, n). REQUIRES: n > 0. Int63n and Int31n consume and map different bits; TSBS uses
  // both, so callers must pick the one the Go code calls (Intn(n) is Int31n(n) for n < 2^31).
  int64_t Int63n(int64_t n);
  int32_t Int31n(int32_t n);
  int64_t Intn(int64_t n) { return n <= 0x7fffffff ? Int31n(static_cast<int32_t>(n)) : Int63n(n); }

  // Uniform in [0, 1): Int63() / 2^63, redrawn when it rounds to 1.
  double Float64() {
    for (;;) {
      double f = static_cast<double>(Int63()) * (1.0 / 9223372036854775808.0);
      if (f != 1.0) return f;
    }
  }

  // Standard normal by Marsaglia-Tsang's ziggurat, exactly as Go computes it (float32 strip tests).
  double NormFloat64();

 private:
  static constexpr uint64_t kMask63 = (uint64_t{1} << 63) - 1;

  int tap_ = 0;
  int feed_ = 0;
  int64_t vec_[kGoRngLen];
};

}  // namespace gnomon::bench
