#include "src/storage/slice_stats_cache.h"

#include <gtest/gtest.h>

#include <cstring>
#include <limits>
#include <thread>

#include "src/storage/segment_test_util.h"

namespace gnomon::storage {
namespace {

ColumnStats IntStats(uint32_t count, int64_t lo, int64_t hi, int64_t sum, bool exact) {
  ColumnStats s;
  s.count = count;
  s.imin = lo;
  s.imax = hi;
  s.min = static_cast<double>(lo);
  s.max = static_cast<double>(hi);
  s.isum_exact = exact;
  s.isum = exact ? sum : 0;
  s.sum = exact ? static_cast<double>(sum) : 1.5e19;
  s.has_numeric = true;
  return s;
}

TEST(SliceStatsCacheTest, ReadsBackWhatWasInsertedForEveryKind) {
  auto budget = std::make_shared<CacheBudget>(1 << 20);
  SliceStatsCache cache(budget, 4);
  std::vector<ColumnStats> ints = {IntStats(360, -5, 90, 12345, true), IntStats(7, INT64_MIN, INT64_MAX, 0, false),
                                   ColumnStats{}};
  ints[0].has_head = true;
  ints[0].head_isum = -777;
  std::vector<ColumnStats> doubles(2);
  doubles[0].count = 3;
  doubles[0].min = -0.0;
  doubles[0].max = std::numeric_limits<double>::quiet_NaN();
  doubles[0].sum = 1e300;
  doubles[0].has_numeric = true;
  std::vector<ColumnStats> strings(1);
  strings[0].count = 9;
  std::vector<ColumnStats> out;
  EXPECT_FALSE(cache.Read(0, ValueType::kInt64, 3, 0, SIZE_MAX, &out));
  cache.Insert(0, ValueType::kInt64, ints);
  cache.Insert(1, ValueType::kFloat64, doubles);
  cache.Insert(2, ValueType::kString, strings);
  ASSERT_TRUE(cache.Read(0, ValueType::kInt64, 3, 0, SIZE_MAX, &out));
  ASSERT_EQ(out.size(), 3u);
  for (size_t i = 0; i < 3; ++i) testing::ExpectSameStats(out[i], ints[i]);
  ASSERT_TRUE(cache.Read(1, ValueType::kFloat64, 2, 0, SIZE_MAX, &out));
  for (size_t i = 0; i < 2; ++i) testing::ExpectSameStats(out[i], doubles[i]);
  ASSERT_TRUE(cache.Read(2, ValueType::kString, 1, 0, SIZE_MAX, &out));
  testing::ExpectSameStats(out[0], strings[0]);
  // Only slices [first, needed) are filled. A different slice count misses.
  out.assign(3, ColumnStats{});
  ASSERT_TRUE(cache.Read(0, ValueType::kInt64, 3, 0, 1, &out));
  testing::ExpectSameStats(out[0], ints[0]);
  testing::ExpectSameStats(out[1], ColumnStats{});  // left as it was
  out.assign(3, ColumnStats{});
  ASSERT_TRUE(cache.Read(0, ValueType::kInt64, 3, 1, 2, &out));
  testing::ExpectSameStats(out[0], ColumnStats{});
  testing::ExpectSameStats(out[1], ints[1]);
  testing::ExpectSameStats(out[2], ColumnStats{});
  EXPECT_FALSE(cache.Read(0, ValueType::kInt64, 4, 0, SIZE_MAX, &out));
  EXPECT_FALSE(cache.Read(3, ValueType::kInt64, 3, 0, SIZE_MAX, &out));
  EXPECT_FALSE(cache.Read(99, ValueType::kInt64, 3, 0, SIZE_MAX, &out));
}

TEST(SliceStatsCacheTest, StaysWithinItsBudgetAndReturnsIt) {
  auto budget = std::make_shared<CacheBudget>(1000);
  std::vector<ColumnStats> slices(10, IntStats(1, 1, 1, 1, true));
  {
    SliceStatsCache cache(budget, 8);  // a 64-byte directory
    EXPECT_EQ(budget->used(), 64u);
    cache.Insert(0, ValueType::kInt64, slices);  // ~340 bytes
    cache.Insert(1, ValueType::kInt64, slices);
    cache.Insert(2, ValueType::kInt64, slices);  // past the limit: not cached
    std::vector<ColumnStats> out;
    EXPECT_TRUE(cache.Read(0, ValueType::kInt64, 10, 0, SIZE_MAX, &out));
    EXPECT_TRUE(cache.Read(1, ValueType::kInt64, 10, 0, SIZE_MAX, &out));
    EXPECT_FALSE(cache.Read(2, ValueType::kInt64, 10, 0, SIZE_MAX, &out));
    EXPECT_LE(budget->used(), budget->limit());
    EXPECT_GT(budget->used(), 64u);
  }
  EXPECT_EQ(budget->used(), 0u);
  // A directory that does not fit: nothing is cached, nothing charged.
  SliceStatsCache tiny(budget, 1000);
  EXPECT_EQ(budget->used(), 0u);
  tiny.Insert(0, ValueType::kInt64, slices);
  std::vector<ColumnStats> out;
  EXPECT_FALSE(tiny.Read(0, ValueType::kInt64, 10, 0, SIZE_MAX, &out));
}

TEST(SliceStatsCacheTest, ConcurrentInsertsKeepOneAndChargeOnce) {
  auto budget = std::make_shared<CacheBudget>(1 << 20);
  auto cache = std::make_unique<SliceStatsCache>(budget, 1);
  const size_t directory = budget->used();
  std::vector<ColumnStats> slices(24, IntStats(360, 0, 100, 18000, true));
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 100; ++i) cache->Insert(0, ValueType::kInt64, slices);
    });
  }
  for (auto& t : threads) t.join();
  const size_t one_entry = budget->used() - directory;
  EXPECT_GT(one_entry, 24 * 8u);
  EXPECT_LT(one_entry, 24 * sizeof(ColumnStats));  // packed: smaller than 24 ColumnStats
  std::vector<ColumnStats> out;
  ASSERT_TRUE(cache->Read(0, ValueType::kInt64, 24, 0, SIZE_MAX, &out));
  testing::ExpectSameStats(out[23], slices[23]);
  cache.reset();
  EXPECT_EQ(budget->used(), 0u);
}

}  // namespace
}  // namespace gnomon::storage
