// Timestamp precision of a line-protocol body (the `precision` query parameter of the write
// endpoints) and the scaling of raw timestamps to nanoseconds.
#pragma once

#include <cstdint>
#include <string_view>

#include "src/base/result.h"

namespace gnomon::server {

enum class Precision { kNanosecond, kMicrosecond, kMillisecond, kSecond, kMinute, kHour };

// "ns","n" -> ns; "us","u","µs" (also Greek "μs") -> us; "ms" -> ms; "s" -> s; with allow_v1_units
// also "m" (minute) and "h" (hour); empty -> ns. allow_v1_units=false (v2/v3 endpoints) rejects
// "m"/"h". Anything else is InvalidArgument naming the value.
Result<Precision> ParsePrecision(std::string_view text, bool allow_v1_units);

// "ns", "us", "ms", "s", "m", "h".
std::string_view PrecisionName(Precision p);

// Nanoseconds in one unit of `p` (1 for ns ... 3.6e12 for h).
inline int64_t NanosPerUnit(Precision p) {
  switch (p) {
    case Precision::kNanosecond: return 1;
    case Precision::kMicrosecond: return 1'000;
    case Precision::kMillisecond: return 1'000'000;
    case Precision::kSecond: return 1'000'000'000;
    case Precision::kMinute: return 60'000'000'000;
    case Precision::kHour: return 3'600'000'000'000;
  }
  return 1;
}

// The smallest and largest accepted times in nanoseconds. As in InfluxDB, the two values at each
// end of the int64 range are reserved (readers use them as open bounds), so a point may not sit
// there.
inline constexpr int64_t kMinTimeNanos = INT64_MIN + 2;
inline constexpr int64_t kMaxTimeNanos = INT64_MAX - 1;

// Scales a raw timestamp in units of `p` to nanoseconds. Returns false when the result falls
// outside [kMinTimeNanos, kMaxTimeNanos] (including multiplication overflow).
inline bool ScaleToNanos(int64_t raw, Precision p, int64_t* nanos) {
  int64_t out;
  if (__builtin_mul_overflow(raw, NanosPerUnit(p), &out)) return false;
  if (out < kMinTimeNanos || out > kMaxTimeNanos) return false;
  *nanos = out;
  return true;
}

}  // namespace gnomon::server
