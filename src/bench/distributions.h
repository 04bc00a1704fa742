// The value processes TSBS's simulators are built from (spec section 2), each advanced once per tick
// and read when a point is made. All randomness comes from the caller's GoRand, so the draw order is
// exactly the order in which Advance is called.
#pragma once

#include <cmath>
#include <cstdint>

#include "src/bench/go_rand.h"

namespace gnomon::bench {

// ND(mean, stddev): stateless; caches its last draw (mean + stddev * Z).
struct NormalStep {
  double mean = 0;
  double stddev = 1;
  double value = 0;

  void Advance(GoRand& rng) { value = rng.NormFloat64() * stddev + mean; }
  double Get() const { return value; }
};

// UD(low, high): stateless; caches its last draw (low + (high - low) * U); 0 before the first draw.
struct UniformStep {
  double low = 0;
  double high = 1;
  double value = 0;

  void Advance(GoRand& rng) {
    double x = rng.Float64();
    x *= high - low;
    x += low;
    value = x;
  }
  double Get() const { return value; }
};

enum class WalkKind : uint8_t {
  kPlain,      // WD: x += step
  kClamped,    // CWD: x += step, then x = min(x, max), then x = max(x, min)
  kMonotonic,  // MWD: x += |step|
};

// A random walk over `Step` (NormalStep or UniformStep). TSBS shares one step object between many
// walks, but each walk draws and consumes its step immediately, so owning a copy is equivalent.
template <typename Step>
struct Walk {
  WalkKind kind = WalkKind::kPlain;
  Step step;
  double min = 0;
  double max = 0;
  double state = 0;

  void Advance(GoRand& rng) {
    step.Advance(rng);
    switch (kind) {
      case WalkKind::kPlain:
        state += step.Get();
        break;
      case WalkKind::kClamped:
        state += step.Get();
        if (state > max) state = max;
        if (state < min) state = min;
        break;
      case WalkKind::kMonotonic:
        state += std::fabs(step.Get());
        break;
    }
  }
  double Get() const { return state; }
};

template <typename Step>
Walk<Step> ClampedWalk(Step step, double min, double max, double start) {
  return Walk<Step>{WalkKind::kClamped, step, min, max, start};
}
template <typename Step>
Walk<Step> MonotonicWalk(Step step, double start) {
  return Walk<Step>{WalkKind::kMonotonic, step, 0, 0, start};
}
template <typename Step>
Walk<Step> PlainWalk(Step step, double start) {
  return Walk<Step>{WalkKind::kPlain, step, 0, 0, start};
}

// FP(d, p): the inner value truncated toward zero to `digits` decimals. `scale` is 10^digits.
inline double TruncateToPrecision(double value, double scale) {
  return static_cast<double>(static_cast<int64_t>(value * scale)) / scale;
}

// 10^digits for digits clamped to [0, 5], as TSBS's FP constructor computes it.
inline double PrecisionScale(int digits) {
  static constexpr double kScales[] = {1, 10, 100, 1000, 10000, 100000};
  return kScales[digits < 0 ? 0 : digits > 5 ? 5 : digits];
}

// LD(motive, d, threshold): draws the motive every tick and advances `*step` only when the motive is
// >= threshold; reports `*step`'s current value. `step` may be shared (TSBS's IoT current_load shares
// one U(0, 5000) between all trucks, so every truck reports the last value drawn by any truck).
struct LazyUniform {
  UniformStep motive;
  UniformStep* step = nullptr;  // not owned
  double threshold = 0;

  void Advance(GoRand& rng) {
    motive.Advance(rng);
    if (motive.Get() < threshold) return;
    step->Advance(rng);
  }
  double Get() const { return step->Get(); }
};

}  // namespace gnomon::bench
