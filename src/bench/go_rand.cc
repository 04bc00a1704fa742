#include "src/bench/go_rand.h"

#include <cmath>

namespace gnomon::bench {
namespace {

constexpr int32_t kInt32Max = 0x7fffffff;

// x' = 48271 * x mod (2^31 - 1) by Schrage's method, as Go's seedrand.
int32_t SeedRand(int32_t x) {
  constexpr int32_t kA = 48271, kQ = 44488, kR = 3399;
  int32_t hi = x / kQ;
  int32_t lo = x % kQ;
  x = kA * lo - kR * hi;
  if (x < 0) x += kInt32Max;
  return x;
}

constexpr double kZigguratR = 3.442619855899;  // start of the normal tail

}  // namespace

void GoRand::Seed(int64_t seed) {
  tap_ = 0;
  feed_ = kGoRngLen - kGoRngTap;
  seed %= kInt32Max;
  if (seed < 0) seed += kInt32Max;
  if (seed == 0) seed = 89482311;
  int32_t x = static_cast<int32_t>(seed);
  for (int i = -20; i < kGoRngLen; ++i) {
    x = SeedRand(x);
    if (i >= 0) {
      uint64_t u = static_cast<uint64_t>(static_cast<int64_t>(x)) << 40;
      x = SeedRand(x);
      u ^= static_cast<uint64_t>(static_cast<int64_t>(x)) << 20;
      x = SeedRand(x);
      u ^= static_cast<uint64_t>(static_cast<int64_t>(x));
      u ^= static_cast<uint64_t>(kGoRngCooked[i]);
      vec_[i] = static_cast<int64_t>(u);
    }
  }
}

int64_t GoRand::Int63n(int64_t n) {
  if ((n & (n - 1)) == 0) return Int63() & (n - 1);
  const uint64_t two63 = uint64_t{1} << 63;
  const int64_t max = static_cast<int64_t>(two63 - 1 - two63 % static_cast<uint64_t>(n));
  int64_t v = Int63();
  while (v > max) v = Int63();
  return v % n;
}

int32_t GoRand::Int31n(int32_t n) {
  if ((n & (n - 1)) == 0) return Int31() & (n - 1);
  const uint32_t two31 = uint32_t{1} << 31;
  const int32_t max = static_cast<int32_t>(two31 - 1 - two31 % static_cast<uint32_t>(n));
  int32_t v = Int31();
  while (v > max) v = Int31();
  return v % n;
}

double GoRand::NormFloat64() {
  for (;;) {
    const int32_t j = static_cast<int32_t>(Uint32());  // possibly negative
    const int i = j & 0x7f;
    double x = static_cast<double>(j) * static_cast<double>(kGoNormWn[i]);
    const uint32_t abs_j = j < 0 ? static_cast<uint32_t>(0u - static_cast<uint32_t>(j))
                                 : static_cast<uint32_t>(j);
    if (abs_j < kGoNormKn[i]) return x;  // the rectangle: > 99% of draws
    if (i == 0) {
      // The base strip's tail beyond r, sampled by Marsaglia's exponential method.
      for (;;) {
        x = -std::log(Float64()) * (1.0 / kZigguratR);
        const double y = -std::log(Float64());
        if (y + y >= x * x) break;
      }
      return j > 0 ? kZigguratR + x : -kZigguratR - x;
    }
    // Wedge test, in float32 exactly as Go evaluates it (each operation rounded to float).
    const float u = static_cast<float>(Float64());
    const float width = kGoNormFn[i - 1] - kGoNormFn[i];
    const float scaled = u * width;
    const float lhs = kGoNormFn[i] + scaled;
    if (lhs < static_cast<float>(std::exp(-0.5 * x * x))) return x;
  }
}

}  // namespace gnomon::bench
