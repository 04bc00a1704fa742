// Test-only: the data shapes every codec is checked against (style.md rule 4), shared by the
// encoding tests and the fuzz seed generator.
#pragma once

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace gnomon::encoding::testing {

// Lengths around the FOR group size (128) and the usual block sizes.
inline const std::vector<size_t>& TestLengths() {
  static const std::vector<size_t> kLengths = {0, 1, 2, 3, 7, 8, 9, 63, 127, 128, 129, 255, 256, 257, 1000, 4097, 8192};
  return kLengths;
}

enum class IntShape {
  kConstant, kStep, kJitteredTimestamps, kRandomWalk, kBoundedWalk, kSmallRandom, kRandom,
  kExtremes, kHugeDeltas, kCountersWithResets, kSparse, kRuns,
};
inline const std::vector<IntShape>& AllIntShapes() {
  static const std::vector<IntShape> kShapes = {
      IntShape::kConstant,   IntShape::kStep,     IntShape::kJitteredTimestamps, IntShape::kRandomWalk,
      IntShape::kBoundedWalk, IntShape::kSmallRandom, IntShape::kRandom,       IntShape::kExtremes,
      IntShape::kHugeDeltas, IntShape::kCountersWithResets, IntShape::kSparse, IntShape::kRuns};
  return kShapes;
}

inline std::vector<int64_t> MakeInts(IntShape shape, size_t n, uint64_t seed = 1) {
  std::mt19937_64 rng(seed);
  std::vector<int64_t> v(n);
  int64_t x = 0;
  const int64_t kMin = std::numeric_limits<int64_t>::min(), kMax = std::numeric_limits<int64_t>::max();
  for (size_t i = 0; i < n; ++i) {
    switch (shape) {
      case IntShape::kConstant: v[i] = -42; break;
      case IntShape::kStep: v[i] = 1686441600000000000 + static_cast<int64_t>(i) * 10'000'000'000; break;
      case IntShape::kJitteredTimestamps:
        v[i] = 1686441600000000000 + static_cast<int64_t>(i) * 1'000'000'000 + static_cast<int64_t>(rng() % 2000) - 1000;
        break;
      case IntShape::kRandomWalk: x += static_cast<int64_t>(rng() % 7) - 3; v[i] = x; break;
      case IntShape::kBoundedWalk:
        x = std::clamp<int64_t>(x + static_cast<int64_t>(rng() % 5) - 2, 0, 100);
        v[i] = x;
        break;
      case IntShape::kSmallRandom: v[i] = static_cast<int64_t>(rng() % 100); break;
      case IntShape::kRandom: v[i] = static_cast<int64_t>(rng()); break;
      case IntShape::kExtremes: {
        const int64_t e[] = {kMin, kMax, 0, -1, kMin + 1, kMax - 1};
        v[i] = e[rng() % 6];
        break;
      }
      case IntShape::kHugeDeltas: v[i] = (i % 2 == 0) ? kMin : kMax; break;
      case IntShape::kCountersWithResets: x = (rng() % 50 == 0) ? 0 : x + static_cast<int64_t>(rng() % 1000); v[i] = x; break;
      case IntShape::kSparse: v[i] = (rng() % 20 == 0) ? static_cast<int64_t>(rng() % 1000) : 0; break;
      case IntShape::kRuns: if (rng() % 40 == 0) x = static_cast<int64_t>(rng() % 5); v[i] = x; break;
    }
  }
  return v;
}

inline std::vector<uint64_t> MakeUInts(IntShape shape, size_t n, uint64_t seed = 1) {
  std::vector<int64_t> s = MakeInts(shape, n, seed);
  std::vector<uint64_t> u(n);
  for (size_t i = 0; i < n; ++i) u[i] = static_cast<uint64_t>(s[i]);
  if (n > 0 && shape == IntShape::kExtremes) u[0] = std::numeric_limits<uint64_t>::max();
  return u;
}

enum class FloatShape { kConstant, kDecimalWalk, kIntegral, kRandom, kSpecials, kMostlyDecimal, kTinyAndHuge };
inline const std::vector<FloatShape>& AllFloatShapes() {
  static const std::vector<FloatShape> kShapes = {FloatShape::kConstant, FloatShape::kDecimalWalk,
                                                  FloatShape::kIntegral, FloatShape::kRandom,
                                                  FloatShape::kSpecials, FloatShape::kMostlyDecimal,
                                                  FloatShape::kTinyAndHuge};
  return kShapes;
}

inline std::vector<double> MakeFloats(FloatShape shape, size_t n, uint64_t seed = 1) {
  std::mt19937_64 rng(seed);
  std::vector<double> v(n);
  int64_t cents = 5000;
  const double kSpecials[] = {
      std::numeric_limits<double>::quiet_NaN(),
      std::bit_cast<double>(uint64_t{0x7ff0000000000123}),  // signalling NaN with a payload
      std::bit_cast<double>(uint64_t{0xfff8000000000abc}),  // negative quiet NaN with a payload
      std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity(), -0.0, 0.0,
      std::numeric_limits<double>::denorm_min(), -std::numeric_limits<double>::denorm_min(),
      std::numeric_limits<double>::min(), std::numeric_limits<double>::max(), -std::numeric_limits<double>::max(),
      1.5, 0.1, -2.25};
  for (size_t i = 0; i < n; ++i) {
    switch (shape) {
      case FloatShape::kConstant: v[i] = 3.25; break;
      case FloatShape::kDecimalWalk: cents += static_cast<int64_t>(rng() % 21) - 10; v[i] = cents / 100.0; break;
      case FloatShape::kIntegral: v[i] = static_cast<double>(rng() % 1000); break;
      case FloatShape::kRandom: v[i] = std::bit_cast<double>(rng()); break;
      case FloatShape::kSpecials: v[i] = kSpecials[rng() % std::size(kSpecials)]; break;
      case FloatShape::kMostlyDecimal:
        v[i] = (rng() % 16 == 0) ? kSpecials[rng() % std::size(kSpecials)] : static_cast<double>(rng() % 100000) / 1000.0;
        break;
      case FloatShape::kTinyAndHuge: v[i] = std::ldexp(static_cast<double>(rng() % 1000), static_cast<int>(rng() % 2000) - 1000); break;
    }
  }
  return v;
}

}  // namespace gnomon::encoding::testing
