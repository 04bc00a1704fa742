#include "src/storage/series_table.h"

#include <random>
#include <vector>

#include <gtest/gtest.h>

namespace gnomon::storage {
namespace {

void ExpectSame(const SeriesMeta& want, const SeriesMeta& got, size_t i) {
  EXPECT_EQ(want.id, got.id) << i;
  EXPECT_EQ(want.first_group, got.first_group) << i;
  EXPECT_EQ(want.num_groups, got.num_groups) << i;
  EXPECT_EQ(want.rows, got.rows) << i;
  EXPECT_EQ(want.min_time, got.min_time) << i;
  EXPECT_EQ(want.max_time, got.max_time) << i;
  EXPECT_EQ(want.pack, got.pack) << i;
  EXPECT_EQ(want.pack_first_row, got.pack_first_row) << i;
}

// Every entry reads back the same through operator[], iteration and Find.
void ExpectTableHolds(const std::vector<SeriesMeta>& metas, const SeriesTable& table) {
  ASSERT_EQ(metas.size(), table.size());
  for (size_t i = 0; i < metas.size(); ++i) {
    ExpectSame(metas[i], table[i], i);
    EXPECT_EQ(i, table.Find(metas[i].id));
  }
  size_t i = 0;
  for (auto it = table.begin(); it != table.end(); ++it, ++i) {
    EXPECT_EQ(metas[i].id, it.id()) << i;
    ExpectSame(metas[i], *it, i);
  }
  EXPECT_EQ(metas.size(), i);
}

// A flush of a fleet: packs of short series sharing time spans, with long unpacked series and
// now and then an entry that breaks the pattern (as a hand-made or damaged file might).
std::vector<SeriesMeta> MixedSeries(uint32_t seed, size_t n) {
  std::mt19937 rng(seed);
  std::vector<SeriesMeta> out;
  uint32_t pack = 0, row = 0, group = 0;
  SeriesId id = 0;
  int64_t span_start = 1000;
  for (size_t i = 0; i < n; ++i) {
    id += 1 + (rng() % 4 == 0 ? rng() % 100000 : 0);
    SeriesMeta m;
    m.id = id;
    const uint32_t kind = rng() % 20;
    if (kind == 0) {  // unpacked, long
      m.first_group = group;
      m.num_groups = 1 + rng() % 3;
      group += m.num_groups;
      m.rows = 8192 * m.num_groups;
      m.min_time = span_start - 5;
      m.max_time = span_start + 99999;
    } else {
      m.num_groups = 1;
      m.rows = 1 + rng() % (kind == 1 ? 9000 : 3);
      if (row + m.rows > 8192) ++pack, row = 0;
      if (rng() % 50 == 0) span_start += 10;
      m.min_time = span_start;
      m.max_time = span_start + (m.rows - 1) * 10;
      m.pack = pack;
      m.pack_first_row = row;
      if (kind == 2) m.pack_first_row += 7;  // out of place: kept whole
      row += m.rows;
    }
    out.push_back(m);
  }
  return out;
}

TEST(SeriesTableTest, EmptyTableFindsNothing) {
  SeriesTable table;
  EXPECT_TRUE(table.empty());
  EXPECT_EQ(SeriesTable::kNotFound, table.Find(0));
  EXPECT_TRUE(table.begin() == table.end());
}

// FindFrom agrees with Find for dense and sparse ascending lookups, ids absent from the table,
// and hints left anywhere (ahead of the id, past it, past the end).
TEST(SeriesTableTest, FindFromAgreesWithFindFromAnyHint) {
  std::mt19937 rng(11);
  SeriesTable table;
  std::vector<SeriesId> ids;
  for (SeriesId id = 0; ids.size() < 5000; id += 1 + rng() % 3) {
    ids.push_back(id);
    SeriesMeta m;
    m.id = id;
    m.rows = 1;
    table.push_back(m);
  }
  const SeriesId top = ids.back() + 5;
  for (SeriesId step : {1u, 2u, 7u, 100u, 3000u}) {
    size_t hint = 0;
    for (SeriesId id = 0; id <= top; id += step) {
      ASSERT_EQ(table.FindFrom(id, &hint), table.Find(id)) << "step " << step << " id " << id;
    }
  }
  for (int i = 0; i < 20000; ++i) {
    const SeriesId id = rng() % (top + 1);
    size_t hint = rng() % (table.size() + 3);
    ASSERT_EQ(table.FindFrom(id, &hint), table.Find(id)) << "id " << id;
  }
  SeriesTable empty;
  size_t hint = 7;
  EXPECT_EQ(empty.FindFrom(3, &hint), SeriesTable::kNotFound);
}

TEST(SeriesTableTest, MixedEntriesReadBackExactly) {
  for (uint32_t seed = 1; seed <= 5; ++seed) {
    std::vector<SeriesMeta> metas = MixedSeries(seed, 3000 + seed * 17);
    SeriesTable table;
    for (const SeriesMeta& m : metas) table.push_back(m);
    table.ShrinkToFit();
    ExpectTableHolds(metas, table);
    EXPECT_EQ(SeriesTable::kNotFound, table.Find(metas.back().id + 1));
  }
}

TEST(SeriesTableTest, PackedFleetCostsUnderSevenBytesASeries) {
  // A flush of a million one-row series: 122 packs of 8,192 rows, one shared time span.
  std::vector<SeriesMeta> metas;
  for (uint32_t i = 0; i < 1'000'000; ++i) {
    SeriesMeta m;
    m.id = i * 2;
    m.num_groups = 1;
    m.rows = 1;
    m.min_time = m.max_time = 1'686'441'600'000'000'000;
    m.pack = i / 8192;
    m.pack_first_row = i % 8192;
    metas.push_back(m);
  }
  SeriesTable table;
  table.reserve(metas.size());
  for (const SeriesMeta& m : metas) table.push_back(m);
  table.ShrinkToFit();
  EXPECT_LT(table.MemoryUsage(), 7 * metas.size());
  ExpectTableHolds(metas, table);
}

TEST(SeriesTableTest, FirstPackedSeriesOfALaterPackIsKeptWhole) {
  // A table whose first packed series is in pack 3 (its packs 0-2 belong to nobody listed).
  SeriesMeta m;
  m.id = 5;
  m.num_groups = 1;
  m.rows = 2;
  m.pack = 3;
  m.pack_first_row = 0;
  SeriesMeta next = m;
  next.id = 6;
  next.pack_first_row = 2;
  SeriesTable table;
  table.push_back(m);
  table.push_back(next);
  ExpectTableHolds({m, next}, table);
}

}  // namespace
}  // namespace gnomon::storage
