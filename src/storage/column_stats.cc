#include "src/storage/column_stats.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>

namespace gnomon::storage {
namespace {

// ComputeStats for a float column without nulls: the same results (the sum added in another
// order), with no per-row type switch.
ColumnStats DenseFloatStats(const uint64_t* bits, size_t rows) {
  ColumnStats s;
  s.count = rows;
  s.has_numeric = rows > 0;
  if (rows == 0) return s;
  // Without NaNs (the sum says: a NaN makes it NaN) minimum and maximum need no tests of their
  // own, and compile to branch-free instructions. Four partial sums, added pairwise at the end:
  // one running sum waits out an addition's latency per value.
  double lo[4], hi[4], part[4] = {0, 0, 0, 0};
  for (double& x : lo) x = std::bit_cast<double>(bits[0]);
  for (double& x : hi) x = std::bit_cast<double>(bits[0]);
  size_t r = 0;
  for (; r + 4 <= rows; r += 4) {
    for (size_t k = 0; k < 4; ++k) {
      const double d = std::bit_cast<double>(bits[r + k]);
      lo[k] = d < lo[k] ? d : lo[k];
      hi[k] = d > hi[k] ? d : hi[k];
      part[k] += d;
    }
  }
  for (size_t k = 0; r < rows; ++r, ++k) {
    const double d = std::bit_cast<double>(bits[r]);
    lo[k] = d < lo[k] ? d : lo[k];
    hi[k] = d > hi[k] ? d : hi[k];
    part[k] += d;
  }
  const double sum = (part[0] + part[1]) + (part[2] + part[3]);
  if (!std::isnan(sum)) {
    s.min = std::min(std::min(lo[0], lo[1]), std::min(lo[2], lo[3]));
    s.max = std::max(std::max(hi[0], hi[1]), std::max(hi[2], hi[3]));
    s.sum = sum;
    return s;
  }
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

void MergeColumnStats(ValueType type, const ColumnStats& s, ColumnStats* into) {
  into->has_head = false;
  into->head_isum = 0;
  if (s.count == 0) return;
  if (into->count == 0) {
    *into = s;
    into->has_head = false;
    into->head_isum = 0;
    return;
  }
  into->count += s.count;
  if (!s.has_numeric) return;
  if (!into->has_numeric) {
    const uint32_t count = into->count;
    *into = s;
    into->count = count;
    into->has_head = false;
    into->head_isum = 0;
    return;
  }
  // A NaN minimum or maximum means every value was NaN: any other value replaces it.
  if (std::isnan(into->min) || s.min < into->min) into->min = s.min;
  if (std::isnan(into->max) || s.max > into->max) into->max = s.max;
  if (type != ValueType::kInt64) {
    into->sum += s.sum;
    return;
  }
  into->imin = std::min(into->imin, s.imin);
  into->imax = std::max(into->imax, s.imax);
  int64_t total = 0;
  if (into->isum_exact && s.isum_exact && !__builtin_add_overflow(into->isum, s.isum, &total)) {
    into->isum = total;
    into->sum = static_cast<double>(total);
  } else {
    into->isum_exact = false;
    into->sum += s.sum;
  }
}

}  // namespace gnomon::storage
