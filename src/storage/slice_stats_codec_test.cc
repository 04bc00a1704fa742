#include "src/storage/slice_stats_codec.h"

#include <gtest/gtest.h>

#include <limits>
#include <random>

#include "src/storage/segment_format.h"
#include "src/storage/segment_test_util.h"
#include "src/storage/segment_writer.h"

namespace gnomon::storage {
namespace {

// What a reader of the one-record-per-slice form decodes for `stats`: the reference.
std::vector<ColumnStats> ThroughRecords(ValueType type, const std::vector<ColumnStats>& stats) {
  std::string records;
  for (const ColumnStats& s : stats) EncodeColumnStats(type, s, &records);
  std::vector<ColumnStats> out;
  EXPECT_TRUE(DecodeSliceStats(type, 5, records, stats.size(), SIZE_MAX, &out).ok());
  return out;
}

void ExpectRoundTrip(ValueType type, const std::vector<ColumnStats>& stats, size_t* bytes = nullptr) {
  std::string block;
  EncodeSliceStats(type, stats, &block);
  std::vector<ColumnStats> got;
  const Status s = DecodeSliceStats(type, kSegmentVersion, block, stats.size(), SIZE_MAX, &got);
  ASSERT_TRUE(s.ok()) << s.ToString();
  const std::vector<ColumnStats> want = ThroughRecords(type, stats);
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    SCOPED_TRACE("slice " + std::to_string(i));
    testing::ExpectSameStats(got[i], want[i]);
  }
  if (bytes != nullptr) *bytes = block.size();
}

// An hour of a bounded random walk sampled every 10 s, as TSBS's cpu fields are.
std::vector<ColumnStats> WalkSlices(size_t n, std::mt19937_64* rng) {
  std::vector<ColumnStats> out;
  int64_t v = 50;
  std::uniform_int_distribution<int> step(-2, 2);
  for (size_t i = 0; i < n; ++i) {
    ColumnStats s;
    s.count = 360;
    s.imin = INT64_MAX;
    s.imax = INT64_MIN;
    s.isum_exact = true;
    s.has_numeric = true;
    s.has_head = i % 4 != 3;
    for (int r = 0; r < 360; ++r) {
      v = std::clamp<int64_t>(v + step(*rng), 0, 100);
      s.imin = std::min(s.imin, v);
      s.imax = std::max(s.imax, v);
      s.isum += v;
      if (r == 179) s.head_isum = s.has_head ? s.isum : 0;
    }
    s.min = static_cast<double>(s.imin);
    s.max = static_cast<double>(s.imax);
    s.sum = static_cast<double>(s.isum);
    out.push_back(s);
  }
  return out;
}

TEST(SliceStatsCodecTest, IntegerSlicesRoundTripInUnderTwoThirdsOfTheRecordsBytes) {
  std::mt19937_64 rng(7);
  const std::vector<ColumnStats> stats = WalkSlices(24, &rng);
  size_t bytes = 0;
  ExpectRoundTrip(ValueType::kInt64, stats, &bytes);
  std::string records;
  for (const ColumnStats& s : stats) EncodeColumnStats(ValueType::kInt64, s, &records);
  EXPECT_LT(bytes * 3, records.size() * 2) << bytes << " against " << records.size();
}

TEST(SliceStatsCodecTest, ExtremeIntegersRoundTripExactly) {
  constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  std::vector<ColumnStats> stats;
  auto add = [&](uint32_t count, int64_t lo, int64_t hi, int64_t sum, bool head, int64_t head_sum) {
    ColumnStats s;
    s.count = count;
    s.imin = lo;
    s.imax = hi;
    s.isum = sum;
    s.isum_exact = true;
    s.has_numeric = true;
    s.has_head = head;
    s.head_isum = head_sum;
    s.min = static_cast<double>(lo);
    s.max = static_cast<double>(hi);
    s.sum = static_cast<double>(sum);
    stats.push_back(s);
  };
  add(2, kMin, kMax, -1, true, kMin);
  add(0, 0, 0, 0, false, 0);
  add(UINT32_MAX, kMax, kMax, kMax, true, kMax);
  add(3, -7, 9, kMin, false, 0);
  ExpectRoundTrip(ValueType::kInt64, stats);
}

TEST(SliceStatsCodecTest, InexactSumsKeepOneRecordPerSlice) {
  std::mt19937_64 rng(3);
  std::vector<ColumnStats> stats = WalkSlices(6, &rng);
  stats[2].isum_exact = false;
  stats[2].has_head = false;
  stats[2].sum = 1e30;
  std::string block;
  EncodeSliceStats(ValueType::kInt64, stats, &block);
  ASSERT_FALSE(block.empty());
  EXPECT_EQ(block[0], 0) << "records form";
  ExpectRoundTrip(ValueType::kInt64, stats);
}

TEST(SliceStatsCodecTest, FloatBoolAndStringSlicesRoundTrip) {
  std::vector<ColumnStats> stats;
  const double values[] = {0.25, -0.0, std::numeric_limits<double>::infinity(), 1e-300, 12.5, 99.75};
  for (size_t i = 0; i < 30; ++i) {
    ColumnStats s;
    s.count = static_cast<uint32_t>(i % 7);
    s.min = values[i % 6];
    s.max = values[(i + 1) % 6];
    s.sum = values[(i + 2) % 6] * 360;
    s.has_numeric = true;
    stats.push_back(s);
  }
  ExpectRoundTrip(ValueType::kFloat64, stats);
  ExpectRoundTrip(ValueType::kUInt64, stats);
  ExpectRoundTrip(ValueType::kBool, stats);
  std::vector<ColumnStats> counts(5);
  for (size_t i = 0; i < counts.size(); ++i) counts[i].count = static_cast<uint32_t>(i * 100);
  ExpectRoundTrip(ValueType::kString, counts);
}

TEST(SliceStatsCodecTest, OlderVersionsDecodeRecordsAndStopEarlyWhenAsked) {
  std::mt19937_64 rng(11);
  const std::vector<ColumnStats> stats = WalkSlices(5, &rng);
  std::string records;
  for (const ColumnStats& s : stats) EncodeColumnStats(ValueType::kInt64, s, &records);
  std::vector<ColumnStats> got;
  ASSERT_TRUE(DecodeSliceStats(ValueType::kInt64, 4, records, 5, 2, &got).ok());
  ASSERT_EQ(got.size(), 5u);
  EXPECT_EQ(got[1].isum, stats[1].isum);
  EXPECT_EQ(got[2].count, 0u) << "not decoded";
  EXPECT_FALSE(DecodeSliceStats(ValueType::kInt64, 4, records + "x", 5, SIZE_MAX, &got).ok());
}

TEST(SliceStatsCodecTest, DamagedBlocksAreCorruptionNeverACrash) {
  std::mt19937_64 rng(5);
  const std::vector<ColumnStats> stats = WalkSlices(24, &rng);
  std::string block;
  EncodeSliceStats(ValueType::kInt64, stats, &block);
  std::vector<ColumnStats> got;
  for (size_t len = 0; len < block.size(); ++len) {
    EXPECT_FALSE(DecodeSliceStats(ValueType::kInt64, kSegmentVersion, block.substr(0, len), 24, SIZE_MAX, &got).ok())
        << "truncated to " << len;
  }
  EXPECT_FALSE(DecodeSliceStats(ValueType::kInt64, kSegmentVersion, block, 23, SIZE_MAX, &got).ok())
      << "wrong slice count";
  EXPECT_FALSE(DecodeSliceStats(ValueType::kFloat64, kSegmentVersion, block, 24, SIZE_MAX, &got).ok())
      << "integer form read as a float column";
  std::string unknown = block;
  unknown[0] = 9;
  EXPECT_FALSE(DecodeSliceStats(ValueType::kInt64, kSegmentVersion, unknown, 24, SIZE_MAX, &got).ok());
  for (size_t i = 0; i < block.size(); ++i) {  // flips: either an error or some stats, no crash
    std::string flipped = block;
    flipped[i] = static_cast<char>(flipped[i] ^ 0x5a);
    (void)DecodeSliceStats(ValueType::kInt64, kSegmentVersion, flipped, 24, SIZE_MAX, &got);
  }
}

}  // namespace
}  // namespace gnomon::storage
