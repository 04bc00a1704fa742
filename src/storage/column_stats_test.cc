#include "src/storage/column_stats.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

namespace gnomon::storage {
namespace {

// ComputeStats by the definition, one value at a time: NaN never becomes the minimum or the
// maximum unless every value is NaN.
ColumnStats Reference(ValueType type, const std::vector<uint64_t>& bits, const std::vector<uint8_t>& valid) {
  ColumnStats s;
  bool first = true;
  for (size_t r = 0; r < bits.size(); ++r) {
    if (!valid.empty() && valid[r] == 0) continue;
    ++s.count;
    s.has_numeric = true;
    const double d = type == ValueType::kFloat64 ? std::bit_cast<double>(bits[r])
                                                 : static_cast<double>(static_cast<int64_t>(bits[r]));
    if (first || std::isnan(s.min) || d < s.min) s.min = d;
    if (first || std::isnan(s.max) || d > s.max) s.max = d;
    s.sum += d;
    if (type == ValueType::kInt64) {
      const auto v = static_cast<int64_t>(bits[r]);
      if (first || v < s.imin) s.imin = v;
      if (first || v > s.imax) s.imax = v;
      s.isum += v;
    }
    first = false;
  }
  return s;
}

void ExpectSameFloat(double got, double want, const char* what) {
  if (std::isnan(want)) {
    EXPECT_TRUE(std::isnan(got)) << what;
  } else {
    EXPECT_EQ(got, want) << what;
  }
}

// Floats with NaNs and infinities in some rounds, at random places, dense and with nulls.
TEST(ColumnStatsTest, FloatStatsFollowTheDefinitionWithNaNsAndInfinities) {
  std::mt19937_64 rng(5);
  const double kInf = std::numeric_limits<double>::infinity();
  const double kNaN = std::numeric_limits<double>::quiet_NaN();
  for (int round = 0; round < 400; ++round) {
    const size_t n = rng() % 300;
    std::vector<uint64_t> bits(n);
    std::vector<uint8_t> valid;
    if (round % 2 == 1) valid.resize(n);
    for (size_t r = 0; r < n; ++r) {
      double d = static_cast<double>(static_cast<int64_t>(rng() % 2000) - 1000) / 8;
      const uint64_t pick = rng() % 50;
      if (round % 4 >= 2 && pick == 0) d = kNaN;
      if (round % 4 >= 2 && pick == 1) d = kInf;
      if (round % 4 >= 2 && pick == 2) d = -kInf;
      if (round % 8 == 7) d = kNaN;  // every value NaN
      bits[r] = std::bit_cast<uint64_t>(d);
      if (!valid.empty()) valid[r] = rng() % 4 != 0;
    }
    const ColumnStats want = Reference(ValueType::kFloat64, bits, valid);
    const ColumnStats got =
        ComputeStats(ValueType::kFloat64, bits.data(), valid.empty() ? nullptr : valid.data(), n);
    ASSERT_EQ(got.count, want.count) << "round " << round;
    EXPECT_EQ(got.has_numeric, want.has_numeric) << "round " << round;
    if (want.count == 0) continue;
    ExpectSameFloat(got.min, want.min, "min");
    ExpectSameFloat(got.max, want.max, "max");
    if (std::isnan(want.sum) || std::isinf(want.sum)) {
      ExpectSameFloat(got.sum, want.sum, "sum");
    } else {
      EXPECT_NEAR(got.sum, want.sum, 1e-9 * (1 + std::fabs(want.sum))) << "round " << round;
    }
  }
}

// Merging the statistics of two parts of a column gives those of the whole: counts, minimum,
// maximum and exact int sums equal, float sums up to rounding.
TEST(ColumnStatsTest, MergedPartsGiveTheStatisticsOfTheWhole) {
  std::mt19937_64 rng(9);
  const double kNaN = std::numeric_limits<double>::quiet_NaN();
  for (int round = 0; round < 600; ++round) {
    const ValueType type = round % 3 == 0 ? ValueType::kInt64 : ValueType::kFloat64;
    const size_t n = rng() % 200;
    std::vector<uint64_t> bits(n);
    std::vector<uint8_t> valid;
    if (round % 2 == 1) valid.resize(n);
    for (size_t r = 0; r < n; ++r) {
      const auto v = static_cast<int64_t>(rng() % 100000) - 50000;
      double d = static_cast<double>(v) / 4;
      if (round % 5 == 4 && rng() % 10 == 0) d = kNaN;
      bits[r] = type == ValueType::kInt64 ? static_cast<uint64_t>(v) : std::bit_cast<uint64_t>(d);
      if (!valid.empty()) valid[r] = rng() % 3 != 0;
    }
    const size_t cut = n == 0 ? 0 : rng() % (n + 1);
    const uint8_t* v = valid.empty() ? nullptr : valid.data();
    const ColumnStats whole = ComputeStats(type, bits.data(), v, n);
    ColumnStats merged = ComputeStats(type, bits.data(), v, cut);
    MergeColumnStats(type, ComputeStats(type, bits.data() + cut, v == nullptr ? nullptr : v + cut, n - cut), &merged);
    ASSERT_EQ(merged.count, whole.count) << "round " << round;
    EXPECT_EQ(merged.has_numeric, whole.has_numeric) << "round " << round;
    if (whole.count == 0) continue;
    ExpectSameFloat(merged.min, whole.min, "min");
    ExpectSameFloat(merged.max, whole.max, "max");
    if (type == ValueType::kInt64) {
      EXPECT_EQ(merged.imin, whole.imin) << "round " << round;
      EXPECT_EQ(merged.imax, whole.imax) << "round " << round;
      ASSERT_TRUE(merged.isum_exact) << "round " << round;
      EXPECT_EQ(merged.isum, whole.isum) << "round " << round;
      EXPECT_EQ(merged.sum, whole.sum) << "round " << round;
    } else if (std::isnan(whole.sum)) {
      EXPECT_TRUE(std::isnan(merged.sum)) << "round " << round;
    } else {
      EXPECT_NEAR(merged.sum, whole.sum, 1e-9 * (1 + std::fabs(whole.sum))) << "round " << round;
    }
  }
}

// An int sum that passes int64 in the merge is no longer exact; its double stays.
TEST(ColumnStatsTest, AnIntSumOverflowingInTheMergeIsNotExact) {
  const std::vector<uint64_t> big = {static_cast<uint64_t>(INT64_MAX - 5)};
  ColumnStats merged = ComputeStats(ValueType::kInt64, big.data(), nullptr, 1);
  MergeColumnStats(ValueType::kInt64, ComputeStats(ValueType::kInt64, big.data(), nullptr, 1), &merged);
  EXPECT_EQ(merged.count, 2u);
  EXPECT_FALSE(merged.isum_exact);
  EXPECT_DOUBLE_EQ(merged.sum, 2.0 * static_cast<double>(INT64_MAX - 5));
  EXPECT_EQ(merged.imax, INT64_MAX - 5);
}

}  // namespace
}  // namespace gnomon::storage
