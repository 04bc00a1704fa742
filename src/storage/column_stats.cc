#include "src/storage/column_stats.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>

namespace gnomon::storage {
namespace {

// ComputeStats for a float column without nulls: the same results, with no per-row type switch.
ColumnStats DenseFloatStats(const uint64_t* bits, size_t rows) {
  ColumnStats s;
  s.count = rows;
  s.has_numeric = rows > 0;
  for (size_t r = 0; r < rows; ++r) {
    const double d = std::bit_cast<double>(bits[r]);
    // NaN never becomes min or max (SQL aggregates skip it the same way).
    if (r == 0 || d < s.min || std::isnan(s.min)) s.min = d;
    if (r == 0 || d > s.max || std::isnan(s.max)) s.max = d;
    s.sum += d;
  }
  return s;
}

// ComputeStats for an int64 column without nulls.
ColumnStats DenseIntStats(const uint64_t* bits, size_t rows) {
  ColumnStats s;
  s.count = rows;
  s.has_numeric = rows > 0;
  if (rows == 0) return s;
  int64_t lo = static_cast<int64_t>(bits[0]), hi = lo;
  __int128 isum = 0;
  for (size_t r = 0; r < rows; ++r) {
    const auto v = static_cast<int64_t>(bits[r]);
    lo = std::min(lo, v);
    hi = std::max(hi, v);
    isum += v;
  }
  s.imin = lo;
  s.imax = hi;
  s.min = static_cast<double>(lo);
  s.max = static_cast<double>(hi);
  if (isum >= INT64_MIN && isum <= INT64_MAX) {
    s.isum = static_cast<int64_t>(isum);
    s.isum_exact = true;
    s.sum = static_cast<double>(isum);
  } else {
    for (size_t r = 0; r < rows; ++r) s.sum += static_cast<double>(static_cast<int64_t>(bits[r]));
  }
  return s;
}

}  // namespace

ColumnStats ComputeStats(ValueType type, const uint64_t* values, const uint8_t* validity, size_t rows) {
  if (validity == nullptr && type == ValueType::kFloat64) return DenseFloatStats(values, rows);
  if (validity == nullptr && type == ValueType::kInt64) return DenseIntStats(values, rows);
  ColumnStats s;
  bool first = true;
  __int128 isum = 0;
  for (size_t r = 0; r < rows; ++r) {
    if (validity != nullptr && validity[r] == 0) continue;
    ++s.count;
    if (type == ValueType::kString) continue;
    s.has_numeric = true;
    uint64_t bits = values[r];
    double d;
    switch (type) {
      case ValueType::kFloat64: d = std::bit_cast<double>(bits); break;
      case ValueType::kInt64: {
        auto v = static_cast<int64_t>(bits);
        if (first || v < s.imin) s.imin = v;
        if (first || v > s.imax) s.imax = v;
        isum += v;
        d = static_cast<double>(v);
        break;
      }
      case ValueType::kUInt64: d = static_cast<double>(bits); break;
      default: d = static_cast<double>(bits & 1); break;
    }
    // NaN never becomes min or max (SQL aggregates skip it the same way).
    if (first || d < s.min || std::isnan(s.min)) s.min = d;
    if (first || d > s.max || std::isnan(s.max)) s.max = d;
    s.sum += d;
    first = false;
  }
  if (type == ValueType::kInt64 && isum >= INT64_MIN && isum <= INT64_MAX) {
    s.isum = static_cast<int64_t>(isum);
    s.isum_exact = true;
    s.sum = static_cast<double>(isum);
  }
  return s;
}

ColumnStats ComputeStats(const ColumnBuffer& col, size_t begin, size_t rows) {
  const uint64_t* values = col.type == ValueType::kString ? nullptr : col.bits.data() + begin;
  const uint8_t* validity = col.validity.empty() ? nullptr : col.validity.data() + begin;
  return ComputeStats(col.type, values, validity, rows);
}

}  // namespace gnomon::storage
