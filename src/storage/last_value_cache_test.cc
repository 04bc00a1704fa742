// LastValueCache: a newer row replaces the cached one, a row of the same time merges into it
// field by field, an older one is ignored; Invalidate forgets; a series costs its
// time and values at the width they need.
#include "src/storage/last_value_cache.h"

#include <gtest/gtest.h>

namespace gnomon::storage {
namespace {

class LastValueCacheTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ColumnId id;
    ASSERT_TRUE(schema_.AddField("a", ValueType::kInt64, &id).ok());
    ASSERT_TRUE(schema_.AddField("s", ValueType::kString, &id).ok());
    ASSERT_TRUE(batch_.FindOrAddField("a", ValueType::kInt64, &fa_));
    ASSERT_TRUE(batch_.FindOrAddField("s", ValueType::kString, &fs_));
    series_ = batch_.AddSeries({{"host", "h"}});
  }
  // Offers one row: a and/or s.
  void Offer(SeriesId id, int64_t time, std::optional<int64_t> a, std::optional<std::string> s) {
    batch_.BeginRow(series_, time, 1);
    if (a) batch_.AddInt(fa_, *a);
    if (s) batch_.AddString(fs_, *s);
    cache_.Offer(id, time, batch_, batch_.rows().back(), {0, 1});
  }
  // "time a s" of the cached row ("-" for a missing field), or "none".
  std::string Row(SeriesId id) {
    LastRow row;
    if (!cache_.Get(id, schema_, &row)) return "none";
    std::string a = "-", s = "-";
    for (const FieldValue& v : row.values) {
      if (v.field == 0) a = std::to_string(v.i64);
      if (v.field == 1) s = row.strings.substr(v.str.offset, v.str.length);
    }
    return std::to_string(row.time) + " " + a + " " + s;
  }

  TableSchema schema_;
  TableBatch batch_{"t"};
  uint32_t fa_ = 0, fs_ = 0, series_ = 0;
  LastValueCache cache_;
};

TEST_F(LastValueCacheTest, NewerReplacesSameTimeMergesOlderIsIgnored) {
  EXPECT_EQ(Row(3), "none");
  Offer(3, 10, 1, "x");
  EXPECT_EQ(Row(3), "10 1 x");
  Offer(3, 20, 2, std::nullopt);
  EXPECT_EQ(Row(3), "20 2 -");  // the newer row alone: its missing field is not carried over
  Offer(3, 20, std::nullopt, "y");
  EXPECT_EQ(Row(3), "20 2 y");  // same time: merged
  Offer(3, 15, 9, "old");
  EXPECT_EQ(Row(3), "20 2 y");
  EXPECT_EQ(Row(0), "none");  // a lower id never written
  cache_.Invalidate(3);
  EXPECT_EQ(Row(3), "none");
  Offer(3, 5, 7, std::nullopt);
  EXPECT_EQ(Row(3), "5 7 -");
}

// GetColumns gives what Get gives, for the requested fields only, in the requested order;
// a series without rows, a field index of -1 and a field the row lacks are not valid.
TEST_F(LastValueCacheTest, ColumnsOfSeveralSeriesAgreeWithRows) {
  Offer(1, 10, 4, "x");
  Offer(2, 20, std::nullopt, "y");
  Offer(5, 30, -7, std::nullopt);
  const std::vector<SeriesId> ids = {5, 0, 1, 2, 9};
  const std::vector<int> fields = {1, -1, 0};
  LastValues out;
  cache_.GetColumns(ids, fields, schema_, &out);
  ASSERT_EQ(out.present.size(), ids.size());
  ASSERT_EQ(out.valid.size(), ids.size() * fields.size());
  ASSERT_EQ(out.strings.size(), ids.size() * fields.size());
  auto cell = [&](size_t i, size_t f) -> std::string {
    const size_t slot = i * fields.size() + f;
    if (!out.valid[slot]) return "-";
    return fields[f] == 1 ? out.strings[slot] : std::to_string(static_cast<int64_t>(out.bits[slot]));
  };
  for (size_t i = 0; i < ids.size(); ++i) {
    if (!out.present[i]) {
      EXPECT_EQ(Row(ids[i]), "none");
      continue;
    }
    EXPECT_EQ(cell(i, 1), "-");
    EXPECT_EQ(Row(ids[i]), std::to_string(out.times[i]) + " " + cell(i, 2) + " " + cell(i, 0)) << ids[i];
  }
  EXPECT_EQ(std::vector<uint8_t>(out.present.begin(), out.present.end()), (std::vector<uint8_t>{1, 0, 1, 1, 0}));
  // Without string fields requested no strings are kept.
  cache_.GetColumns(ids, std::vector<int>{0}, schema_, &out);
  EXPECT_TRUE(out.strings.empty());
  EXPECT_EQ(static_cast<int64_t>(out.bits[0]), -7);
}

TEST_F(LastValueCacheTest, TimesAtTheEndsOfInt64) {
  Offer(1, INT64_MIN, 1, std::nullopt);
  EXPECT_EQ(Row(1), std::to_string(INT64_MIN) + " 1 -");
  Offer(1, INT64_MAX, 2, std::nullopt);
  EXPECT_EQ(Row(1), std::to_string(INT64_MAX) + " 2 -");
}

// Bytes a series costs when every series holds ten float fields of `value(f)`.
double BytesPerSeries(double (*value)(uint32_t)) {
  TableBatch batch("cpu");
  TableSchema schema;
  std::vector<ColumnId> field_ids(10);
  for (uint32_t f = 0; f < 10; ++f) {
    uint32_t index;
    EXPECT_TRUE(batch.FindOrAddField("f" + std::to_string(f), ValueType::kFloat64, &index));
    EXPECT_TRUE(schema.AddField("f" + std::to_string(f), ValueType::kFloat64, &field_ids[f]).ok());
  }
  uint32_t s = batch.AddSeries({});
  batch.BeginRow(s, 1, 1);
  for (uint32_t f = 0; f < 10; ++f) batch.AddFloat(f, value(f));
  LastValueCache cache;
  constexpr SeriesId kSeries = 100000;
  for (SeriesId id = 0; id < kSeries; ++id) cache.Offer(id, 1, batch, batch.rows()[0], field_ids);
  LastRow row;
  EXPECT_TRUE(cache.Get(kSeries - 1, schema, &row));
  for (uint32_t f = 0; f < 10 && f < row.values.size(); ++f) EXPECT_EQ(row.values[f].f64, value(f));
  return static_cast<double>(cache.MemoryUsage()) / kSeries;
}

TEST(LastValueCacheMemoryTest, ASeriesCostsItsValues) {
  // Short values (small integers, doubles with short mantissas): time 8, presence and validity
  // bits, ten 2-byte values: ~30 bytes.
  const double short_values = BytesPerSeries([](uint32_t f) { return static_cast<double>(f) * 2.5; });
  EXPECT_LT(short_values, 40.0);
  EXPECT_GT(short_values, 28.0);
  // Full-width doubles: time 8 and ten 8-byte values, ~90 bytes.
  const double long_values = BytesPerSeries([](uint32_t f) { return 52.31854 + f; });
  EXPECT_LT(long_values, 100.0);
  EXPECT_GT(long_values, 88.0);
}

}  // namespace
}  // namespace gnomon::storage
