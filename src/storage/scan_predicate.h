// Whether rows or statistics may pass a scan's comparison (ScanPredicate): the zone-map and
// row-narrowing tests that segment and memtable reads share. "May" because a read may deliver
// more rows than pass (the consumer filters again), never fewer.
#pragma once

#include <type_traits>

#include "src/base/value_type.h"
#include "src/storage/scan.h"

namespace gnomon::storage {

// Whether some value in [lo, hi] passes the predicate.
inline bool RangeMayPass(double lo, double hi, const ScanPredicate& p) {
  switch (p.op) {
    case ScanPredicate::Op::kGt: return hi > p.value;
    case ScanPredicate::Op::kGe: return hi >= p.value;
    case ScanPredicate::Op::kLt: return lo < p.value;
    case ScanPredicate::Op::kLe: return lo <= p.value;
  }
  return true;
}

// Whether `x` may pass the predicate (false only when it certainly fails). Integers compare
// exactly against the constant; NaN and values a double cannot hold exactly are kept.
template <typename T>
inline bool MayPass(T x, const ScanPredicate& p) {
  if constexpr (std::is_floating_point_v<T>) {
    if (x != x) return true;
  } else {
    constexpr T kExact = T{1} << 53;
    if (x > kExact || (std::is_signed_v<T> && x < -static_cast<std::make_signed_t<T>>(kExact))) return true;
  }
  const double d = static_cast<double>(x);
  return RangeMayPass(d, d, p);
}

// Whether some value summarised by `s` (statistics of a column of `type`) may pass the predicate;
// false only when none can: no value at all (NULL never passes a comparison), or the range
// [min, max] lies wholly on the failing side. Float statistics whose sum is NaN may hide NaN
// rows, and integers beyond 2^53 do not compare exactly as doubles: both are kept.
inline bool StatsMayPass(const ColumnStats& s, ValueType type, const ScanPredicate& p) {
  if (s.count == 0) return false;
  if (!s.has_numeric) return true;
  double lo = s.min, hi = s.max;
  switch (type) {
    case ValueType::kInt64: {
      constexpr int64_t kExact = int64_t{1} << 53;
      if (s.imin < -kExact || s.imax > kExact) return true;
      lo = static_cast<double>(s.imin);
      hi = static_cast<double>(s.imax);
      break;
    }
    case ValueType::kUInt64:
      if (s.max > 9007199254740992.0) return true;
      break;
    case ValueType::kFloat64:
      if (s.sum != s.sum || lo != lo || hi != hi) return true;
      break;
    case ValueType::kBool: break;
    default: return true;
  }
  return RangeMayPass(lo, hi, p);
}

}  // namespace gnomon::storage
