// SegmentWriter / SegmentReader round trips: mixed types, NULL patterns, several row groups,
// extremes, per-group statistics, FindSeries / FindColumn and the index codec on its own.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <limits>
#include <map>
#include <random>

#include "src/encoding/codec_tag.h"

#include "src/port/mem_env.h"
#include "src/storage/segment_reader.h"
#include "src/storage/segment_test_util.h"
#include "src/storage/segment_writer.h"

namespace gnomon::storage {
namespace {

using testing::Bits;
using testing::Bools;
using testing::Double;
using testing::Floats;
using testing::Ints;
using testing::NormalColumn;
using testing::Normalize;
using testing::ReadBack;
using testing::Strings;
using testing::UInts;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

class SegmentTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(env_.CreateDirs("/seg").ok()); }

  // Writes `series` (ids ascending) and opens the result. Series shorter than `pack_max_rows`
  // are packed (0: none; most tests here look at one series' own row groups).
  std::shared_ptr<SegmentReader> WriteAndOpen(
      const std::vector<SegmentColumn>& columns,
      const std::vector<std::pair<SeriesId, SortedSeries>>& series, SegmentIndex* written,
      uint32_t pack_max_rows = 0) {
    SegmentWriter writer(&env_, path_, "tbl", columns);
    writer.set_pack_max_rows(pack_max_rows);
    EXPECT_TRUE(writer.Open().ok());
    for (const auto& [id, data] : series) {
      Status s = writer.AddSeries(id, data);
      EXPECT_TRUE(s.ok()) << s.ToString();
    }
    const uint64_t before_finish = writer.FileSize();
    Status s = writer.Finish(written);
    EXPECT_TRUE(s.ok()) << s.ToString();
    auto size = env_.GetFileSize(path_);
    EXPECT_TRUE(size.ok());
    EXPECT_EQ(*size, writer.FileSize());
    EXPECT_GT(writer.FileSize(), before_finish + kSegmentFooterSize);
    auto reader = SegmentReader::Open(&env_, path_);
    EXPECT_TRUE(reader.ok()) << reader.status().ToString();
    return reader.ok() ? *reader : nullptr;
  }

  // Reads each series back and compares it row for row with what was written.
  void ExpectRoundTrip(const SegmentReader& reader,
                       const std::vector<std::pair<SeriesId, SortedSeries>>& series) {
    ASSERT_EQ(reader.index().series.size(), series.size());
    for (const auto& [id, data] : series) {
      SCOPED_TRACE("series " + std::to_string(id));
      const std::optional<SeriesMeta> meta = reader.FindSeries(id);
      ASSERT_TRUE(meta.has_value());
      std::vector<int64_t> times;
      std::vector<NormalColumn> cols;
      Status s = ReadBack(reader, *meta, &times, &cols);
      ASSERT_TRUE(s.ok()) << s.ToString();
      EXPECT_EQ(times, data.times);
      ASSERT_EQ(cols.size(), reader.index().columns.size());
      for (size_t c = 0; c < cols.size(); ++c) {
        SCOPED_TRACE("column " + reader.index().columns[c].name);
        ColumnBuffer absent;
        const ColumnBuffer& src = c < data.columns.size() ? data.columns[c] : absent;
        NormalColumn expected = Normalize(src, data.times.size());
        if (src.type == ValueType::kNull && reader.index().columns[c].type == ValueType::kString) {
          expected.strings.assign(data.times.size(), "");
          expected.bits.clear();
        }
        EXPECT_EQ(cols[c], expected);
      }
    }
  }

  port::MemEnv env_;
  std::string path_ = "/seg/000001.seg";
};

std::vector<SegmentColumn> AllTypes() {
  return {{"f", ValueType::kFloat64},
          {"i", ValueType::kInt64},
          {"u", ValueType::kUInt64},
          {"b", ValueType::kBool},
          {"s", ValueType::kString}};
}

TEST_F(SegmentTest, RoundTripMixedTypesNullsAndExtremes) {
  constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  std::vector<std::pair<SeriesId, SortedSeries>> series;
  SortedSeries a;
  // Times at the ends of int64: the index stores max - min of a group as a varint.
  a.times = {kMin, kMin + 1, -1, 0, kMax - 1, kMax};
  a.columns = {
      Floats({std::nullopt, -0.0, kNaN, std::numeric_limits<double>::denorm_min(), -kInf,
              std::numeric_limits<double>::max()}),
      Ints({kMin, kMax, 0, -1, std::nullopt, 1}),
      UInts({std::numeric_limits<uint64_t>::max(), 0, 1, 2, 3, std::nullopt}),
      Bools({std::nullopt, true, false, std::nullopt, true, std::nullopt}),
      Strings({"", std::string(1000, 'z'), "\xF0\x9F\x98\x80 emoji", std::nullopt, "", "end"}),
  };
  series.emplace_back(0, std::move(a));
  SortedSeries b;  // one row, every column empty-but-present or absent
  b.times = {7};
  b.columns = {Floats({std::nullopt}), ColumnBuffer{}, UInts({5}), ColumnBuffer{}, Strings({""})};
  series.emplace_back(2, std::move(b));
  SortedSeries c;  // fewer columns than the segment: the rest are absent
  c.times = {1, 2, 3};
  c.columns = {Floats({1.0, 2.0, 3.0})};
  series.emplace_back(1000000, std::move(c));

  SegmentIndex written;
  auto reader = WriteAndOpen(AllTypes(), series, &written);
  ASSERT_NE(reader, nullptr);
  ExpectRoundTrip(*reader, series);

  const SegmentIndex& idx = reader->index();
  EXPECT_EQ(idx.table, "tbl");
  EXPECT_EQ(idx.rows, 10u);
  EXPECT_EQ(idx.min_time, kMin);
  EXPECT_EQ(idx.max_time, kMax);
  ASSERT_EQ(idx.columns.size(), 5u);
  EXPECT_EQ(idx.columns[4].name, "s");
  EXPECT_EQ(idx.columns[4].type, ValueType::kString);
  // What Finish reported is what a reader decodes.
  EXPECT_EQ(written.series.size(), idx.series.size());
  EXPECT_EQ(written.groups.size(), idx.groups.size());
  EXPECT_EQ(written.chunks.size(), idx.chunks.size());

  // Presence per chunk of series 2: f all null -> absent; i never written -> absent; u dense.
  const std::optional<SeriesMeta> one = reader->FindSeries(2);
  ASSERT_TRUE(one.has_value());
  const RowGroupMeta g = reader->group(*one, 0);
  EXPECT_EQ(reader->chunk(g, 0).presence, ColumnChunkMeta::kAbsent);
  EXPECT_EQ(reader->chunk(g, 1).presence, ColumnChunkMeta::kAbsent);
  EXPECT_EQ(reader->chunk(g, 2).presence, ColumnChunkMeta::kDense);
  EXPECT_EQ(reader->chunk(g, 3).presence, ColumnChunkMeta::kAbsent);
  EXPECT_EQ(reader->chunk(g, 4).presence, ColumnChunkMeta::kDense);  // "" is a value
  const RowGroupMeta g0 = reader->group(*reader->FindSeries(0), 0);
  // Every column of series 0 has a NULL somewhere (first row, last row, middle): validity blocks.
  for (size_t col = 0; col < 5; ++col) {
    EXPECT_EQ(reader->chunk(g0, col).presence, ColumnChunkMeta::kWithValidity) << col;
  }
}

// Short series are packed, many to a row group, between long ones that are not; packs fill up to
// kRowsPerPack rows. Every series reads back exactly, and any row ranges of a packed one too.
TEST_F(SegmentTest, ShortSeriesArePackedAndReadBackExactly) {
  std::vector<std::pair<SeriesId, SortedSeries>> series;
  std::mt19937_64 rng(7);
  size_t packed_rows = 0;
  for (SeriesId id = 0; id < 400; ++id) {
    // Mostly short series of 1..kPackedSeriesMaxRows-1 rows; every 50th is long.
    const size_t n = id % 50 == 49 ? kPackedSeriesMaxRows + id : 1 + rng() % (kPackedSeriesMaxRows - 1);
    if (n < kPackedSeriesMaxRows) packed_rows += n;
    SortedSeries d;
    std::vector<std::optional<double>> f;
    std::vector<std::optional<int64_t>> i;
    std::vector<std::optional<std::string>> str;
    for (size_t r = 0; r < n; ++r) {
      d.times.push_back(1686441600000000000 + static_cast<int64_t>(r) * 10000000000 + static_cast<int64_t>(id));
      f.push_back(r % 7 == 3 ? std::nullopt : std::optional<double>(static_cast<double>(rng() % 1000) / 8));
      i.push_back(static_cast<int64_t>(rng() % 100) - 50);
      str.push_back(r % 5 == 0 ? std::nullopt : std::optional<std::string>("v" + std::to_string(rng() % 9)));
    }
    // Series lack some columns: the pack's column then holds nulls for their rows.
    d.columns = {Floats(f), id % 3 == 0 ? ColumnBuffer{} : Ints(i), ColumnBuffer{}, ColumnBuffer{},
                 id % 4 == 1 ? ColumnBuffer{} : Strings(str)};
    series.emplace_back(id * 3 + 1, std::move(d));
  }
  SegmentIndex written;
  auto reader = WriteAndOpen(AllTypes(), series, &written, kPackedSeriesMaxRows);
  ASSERT_NE(reader, nullptr);
  ExpectRoundTrip(*reader, series);

  const SegmentIndex& idx = reader->index();
  ASSERT_GE(idx.packs.size(), 2u);
  // A pack is written when the next short series no longer fits: all but the last are nearly full.
  for (size_t p = 0; p + 1 < idx.packs.size(); ++p) {
    EXPECT_GT(idx.packs[p].rows, kRowsPerPack - kPackedSeriesMaxRows) << p;
  }
  uint64_t in_packs = 0;
  for (const PackMeta& p : idx.packs) {
    EXPECT_LE(p.rows, kRowsPerPack);
    in_packs += p.rows;
  }
  EXPECT_EQ(in_packs, packed_rows);
  for (const auto& [id, data] : series) {
    const std::optional<SeriesMeta> meta = reader->FindSeries(id);
    ASSERT_TRUE(meta.has_value());
    const RowGroupMeta g = reader->group(*meta, 0);
    EXPECT_EQ(g.packed(), data.times.size() < kPackedSeriesMaxRows) << id;
    if (!g.packed()) continue;
    EXPECT_EQ(meta->num_groups, 1u);
    int64_t first = 0, step = 0;
    EXPECT_FALSE(reader->EvenTimes(g, &first, &step));
    // Two disjoint ranges of the series' rows (where it has enough).
    const uint32_t n = g.rows;
    std::vector<std::pair<uint32_t, uint32_t>> ranges = {{0, (n + 1) / 3}, {n / 2, n}};
    if (ranges[0].second > ranges[1].first) ranges = {{0, n}};
    DecodedColumn got;
    ASSERT_TRUE(reader->ReadColumnRows(g, 0, ranges, &got).ok());
    size_t k = 0;
    for (const auto& [b, e] : ranges) {
      for (uint32_t r = b; r < e; ++r, ++k) {
        const ColumnBuffer& src = data.columns[0];
        const bool valid = src.validity.empty() || src.validity[r] != 0;
        ASSERT_EQ(got.validity.empty() || got.validity[k] != 0, valid) << id << " row " << r;
        if (valid) EXPECT_EQ(Bits(got.f64[k]), src.bits[r]) << id << " row " << r;
      }
    }
    EXPECT_EQ(got.f64.size(), k);
  }
  // The index codec round-trips packs too.
  std::string bytes, again;
  EncodeSegmentIndex(idx, &bytes);
  SegmentIndex decoded;
  ASSERT_TRUE(DecodeSegmentIndex(bytes, &decoded).ok());
  EncodeSegmentIndex(decoded, &again);
  EXPECT_EQ(bytes, again);
  EXPECT_EQ(decoded.packs.size(), idx.packs.size());
}

// Packing is what makes a short series cheap: 10,000 series of 6 rows take a fraction of the
// bytes they took with a row group each.
TEST_F(SegmentTest, PackedShortSeriesCostAboutTheirRows) {
  std::vector<std::pair<SeriesId, SortedSeries>> series;
  for (SeriesId id = 0; id < 10000; ++id) {
    SortedSeries d;
    std::vector<std::optional<int64_t>> v;
    for (int r = 0; r < 6; ++r) {
      d.times.push_back(1686441600000000000 + r * 10000000000LL);
      v.push_back(static_cast<int64_t>((id * 7 + r * 3) % 100));
    }
    d.columns = {ColumnBuffer{}, Ints(v)};
    series.emplace_back(id, std::move(d));
  }
  const std::vector<SegmentColumn> columns = {{"f", ValueType::kFloat64}, {"i", ValueType::kInt64}};
  SegmentIndex written;
  auto unpacked = WriteAndOpen(columns, series, &written, 0);
  ASSERT_NE(unpacked, nullptr);
  const uint64_t unpacked_bytes = unpacked->file_size();
  auto reader = WriteAndOpen(columns, series, &written, kPackedSeriesMaxRows);
  ASSERT_NE(reader, nullptr);
  ExpectRoundTrip(*reader, series);
  EXPECT_EQ(reader->index().packs.size(), (60000 + kRowsPerPack - 1) / kRowsPerPack);
  // Per series: an index entry of a few bytes, plus its 6 times and values.
  EXPECT_LT(reader->file_size() * 4, unpacked_bytes)
      << "bytes per series: packed " << reader->file_size() / 10000.0 << ", unpacked " << unpacked_bytes / 10000.0;
  EXPECT_LT(reader->file_size(), 10000u * 24) << "bytes per series " << reader->file_size() / 10000.0;
}

TEST_F(SegmentTest, SeveralRowGroupsPerSeries) {
  const size_t n = 2 * kRowsPerGroup + 123;
  SortedSeries s;
  std::vector<std::optional<int64_t>> ints;
  std::vector<std::optional<double>> floats;
  std::vector<std::optional<std::string>> strs;
  std::vector<std::optional<bool>> bools;
  std::vector<std::optional<uint64_t>> uints;
  uint64_t x = 88172645463325252ull;  // xorshift: values the codecs cannot shrink to nothing
  for (size_t r = 0; r < n; ++r) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    s.times.push_back(static_cast<int64_t>(r) * 1000 + static_cast<int64_t>(x % 997));
    ints.push_back(r == 0 ? std::nullopt : std::optional<int64_t>(static_cast<int64_t>(x)));
    floats.push_back(static_cast<double>(x % 100000) / 7.0);
    // The whole middle group is NULL: its chunk is absent while its neighbours' are not.
    const bool middle = r >= kRowsPerGroup && r < 2 * kRowsPerGroup;
    strs.push_back(middle ? std::nullopt : std::optional<std::string>(std::to_string(x % 50)));
    bools.push_back(r % 5 == 0 ? std::nullopt : std::optional<bool>(x & 1));
    uints.push_back(r + 1 == n ? std::nullopt : std::optional<uint64_t>(x));
  }
  s.columns = {Floats(floats), Ints(ints), UInts(uints), Bools(bools), Strings(strs)};
  std::vector<std::pair<SeriesId, SortedSeries>> series;
  series.emplace_back(4, s);
  SortedSeries small;
  small.times = {5};
  small.columns = {Floats({9.0})};
  series.emplace_back(5, small);

  auto reader = WriteAndOpen(AllTypes(), series, nullptr);
  ASSERT_NE(reader, nullptr);
  ExpectRoundTrip(*reader, series);

  const std::optional<SeriesMeta> meta = reader->FindSeries(4);
  ASSERT_TRUE(meta.has_value());
  EXPECT_EQ(meta->rows, n);
  ASSERT_EQ(meta->num_groups, 3u);
  EXPECT_EQ(meta->min_time, s.times.front());
  EXPECT_EQ(meta->max_time, s.times.back());
  const uint32_t expected_rows[3] = {kRowsPerGroup, kRowsPerGroup, 123};
  for (uint32_t k = 0; k < 3; ++k) {
    const RowGroupMeta g = reader->group(*meta, k);
    EXPECT_EQ(g.rows, expected_rows[k]);
    EXPECT_EQ(g.min_time, s.times[k * kRowsPerGroup]);
    EXPECT_EQ(g.max_time, s.times[k * kRowsPerGroup + g.rows - 1]);
  }
  const RowGroupMeta middle = reader->group(*meta, 1);
  EXPECT_EQ(reader->chunk(middle, 4).presence, ColumnChunkMeta::kAbsent);
  EXPECT_EQ(reader->chunk(middle, 1).presence, ColumnChunkMeta::kDense);
  EXPECT_EQ(reader->chunk(reader->group(*meta, 0), 1).presence,
            ColumnChunkMeta::kWithValidity);
  EXPECT_EQ(reader->chunk(reader->group(*meta, 2), 2).presence,
            ColumnChunkMeta::kWithValidity);
  const std::optional<SeriesMeta> next = reader->FindSeries(5);
  ASSERT_TRUE(next.has_value());
  EXPECT_EQ(next->first_group, 3u);
  EXPECT_EQ(reader->index().rows, n + 1);
}

// Statistics of rows [begin, begin + rows) of `col`, computed here independently of the writer.
struct ExpectedStats {
  uint32_t count = 0;
  double min = 0, max = 0, sum = 0;
  int64_t imin = 0, imax = 0;
  bool any_non_nan = false;
};

ExpectedStats Expect(const ColumnBuffer& col, size_t begin, size_t rows) {
  ExpectedStats e;
  bool first_int = true;
  for (size_t r = begin; r < begin + rows; ++r) {
    if (!col.validity.empty() && !col.validity[r]) continue;
    ++e.count;
    if (col.type == ValueType::kString) continue;
    double d = 0;
    switch (col.type) {
      case ValueType::kFloat64: d = Double(col.bits[r]); break;
      case ValueType::kInt64: {
        auto v = static_cast<int64_t>(col.bits[r]);
        e.imin = first_int ? v : std::min(e.imin, v);
        e.imax = first_int ? v : std::max(e.imax, v);
        first_int = false;
        d = static_cast<double>(v);
        break;
      }
      case ValueType::kUInt64: d = static_cast<double>(col.bits[r]); break;
      default: d = static_cast<double>(col.bits[r]); break;
    }
    e.sum += d;
    if (std::isnan(d)) continue;
    e.min = e.any_non_nan ? std::min(e.min, d) : d;
    e.max = e.any_non_nan ? std::max(e.max, d) : d;
    e.any_non_nan = true;
  }
  return e;
}

void ExpectStatsMatch(const ColumnStats& got, const ExpectedStats& want, ValueType type) {
  EXPECT_EQ(got.count, want.count);
  if (type == ValueType::kString || want.count == 0) return;
  EXPECT_TRUE(got.has_numeric);
  if (want.any_non_nan) {
    EXPECT_EQ(Bits(got.min), Bits(want.min)) << got.min << " vs " << want.min;
    EXPECT_EQ(Bits(got.max), Bits(want.max)) << got.max << " vs " << want.max;
  } else {
    // Only NaNs: there is nothing else to report, and readers skip a NaN min/max.
    EXPECT_TRUE(std::isnan(got.min));
    EXPECT_TRUE(std::isnan(got.max));
  }
  if (std::isnan(want.sum)) {
    EXPECT_TRUE(std::isnan(got.sum));  // as SUM over the rows: NaN propagates
  } else {
    EXPECT_DOUBLE_EQ(got.sum, want.sum);
  }
  if (type == ValueType::kInt64) {
    EXPECT_EQ(got.imin, want.imin);
    EXPECT_EQ(got.imax, want.imax);
  }
}

TEST(ChunkLayoutForSlicesTest, CutsAtRegularHourAndHalfHourSlices) {
  auto slices = [](std::vector<uint32_t> rows) {
    std::vector<SliceInfo> out;
    uint32_t first = 0;
    for (uint32_t r : rows) {
      out.push_back(SliceInfo{0, first, r});
      first += r;
    }
    return out;
  };
  // TSBS: 10 s rows, a group starting 40 minutes into an hour.
  std::vector<uint32_t> tsbs = {120};
  for (int i = 0; i < 22; ++i) tsbs.push_back(360);
  tsbs.push_back(152);
  // Chunks of 180 rows: the hours and their halves.
  encoding::ChunkLayout l = ChunkLayoutForSlices(slices(tsbs), 8192);
  EXPECT_EQ(l.first, 120u);
  EXPECT_EQ(l.size, 180u);
  // A first slice longer than half an hour is cut at its half too: chunk 1 ends at the hour.
  tsbs.front() = 300;
  l = ChunkLayoutForSlices(slices(tsbs), 8372);
  EXPECT_EQ(l.first, 120u);
  EXPECT_EQ(l.size, 180u);
  // A slice's head: its rows before the first seek point inside it.
  EXPECT_EQ(SliceHeadRows({120, 180}, SliceInfo{0, 0, 120}), 0u);     // a chunk of its own
  EXPECT_EQ(SliceHeadRows({120, 180}, SliceInfo{0, 120, 360}), 180u);
  EXPECT_EQ(SliceHeadRows({120, 180}, SliceInfo{0, 480, 100}), 0u);   // a short last slice
  EXPECT_EQ(SliceHeadRows({300, 300}, SliceInfo{0, 0, 300}), 0u);
  EXPECT_EQ(SliceHeadRows({}, SliceInfo{0, 0, 360}), 0u);
  // Odd slices are not halved: 375-row hours (9.6 s rows) are chunked at the hour.
  l = ChunkLayoutForSlices(slices({100, 375, 375, 375, 200}), 1425);
  EXPECT_EQ(l.first, 100u);
  EXPECT_EQ(l.size, 375u);
  // Minute data: 60-row hours are grouped into 5-hour chunks (>= 256 rows), still on slice starts.
  l = ChunkLayoutForSlices(slices({30, 60, 60, 60, 60, 60, 60, 60, 60, 60, 20}), 590);
  EXPECT_EQ(l.first, 30u);
  EXPECT_EQ(l.size, 300u);
  // Irregular slices: fixed chunks. Small groups: none.
  l = ChunkLayoutForSlices(slices({300, 400, 350, 300}), 1350);
  EXPECT_EQ(l.size, 1024u);
  EXPECT_FALSE(ChunkLayoutForSlices(slices({100, 200}), 300).enabled());
}

TEST_F(SegmentTest, ChunkedColumnsReadAnyRowRanges) {
  // 10 s rows starting mid-hour over ~23 hours: integer columns are cut at the hour slices.
  const size_t n = kRowsPerGroup;
  SortedSeries s;
  std::vector<std::optional<int64_t>> ints, sparse;
  std::vector<std::optional<uint64_t>> uints;
  std::vector<std::optional<double>> floats;
  std::vector<std::optional<std::string>> strs;
  std::vector<std::optional<bool>> bools;
  int64_t walk = 50;
  uint64_t x = 88172645463325252ull;
  for (size_t r = 0; r < n; ++r) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    walk = std::clamp<int64_t>(walk + static_cast<int64_t>(x % 5) - 2, 0, 100);
    s.times.push_back(1686443400LL * 1000000000 + static_cast<int64_t>(r) * 10000000000LL);
    ints.push_back(walk);
    uints.push_back(static_cast<uint64_t>(walk) + 7);
    sparse.push_back(r % 3 == 0 ? std::nullopt : std::optional<int64_t>(walk));
    floats.push_back(walk / 4.0);
    strs.push_back("v" + std::to_string(walk % 3));
    bools.push_back(walk > 50);
  }
  s.columns = {Floats(floats), Ints(ints), UInts(uints), Bools(bools), Strings(strs), Ints(sparse)};
  std::vector<SegmentColumn> columns = AllTypes();
  columns.push_back({"sparse", ValueType::kInt64});
  auto reader = WriteAndOpen(columns, {{1, s}}, nullptr);
  ASSERT_NE(reader, nullptr);
  const RowGroupMeta g = reader->group(*reader->FindSeries(1), 0);
  // The walk's block is chunked (seekable); its bytes start with the codec tag.
  const ColumnChunkMeta& ic = reader->chunk(g, 1);
  auto bytes = port::ReadFileToString(&env_, path_);
  ASSERT_TRUE(bytes.ok());
  EXPECT_EQ(encoding::CodecName(static_cast<uint8_t>((*bytes)[ic.offset])), "chunked_delta");
  // Seek points at hours and half hours: the rows start on a half hour (a 180-row first slice).
  const encoding::ChunkLayout layout = reader->ChunkLayoutOf(g, 1);
  EXPECT_EQ(layout.first, 180u);
  EXPECT_EQ(layout.size, 180u);
  EXPECT_FALSE(reader->ChunkLayoutOf(g, 0).enabled());  // floats: no seek points

  // Slice statistics read through a cache (first decoded and cached, then from the cache) are
  // those decoded without one.
  auto budget = std::make_shared<CacheBudget>(1 << 20);
  auto cached = SegmentReader::Open(&env_, path_, budget);
  ASSERT_TRUE(cached.ok());
  std::vector<SliceInfo> slices;
  ASSERT_TRUE(reader->ReadSlices(g, &slices).ok());
  ASSERT_GT(slices.size(), 20u);
  for (int pass = 0; pass < 2; ++pass) {
    for (size_t c = 0; c < columns.size(); ++c) {
      std::vector<ColumnStats> want, got;
      ASSERT_TRUE(reader->ReadSliceStats(g, c, slices.size(), &want).ok());
      ASSERT_TRUE((*cached)->ReadSliceStats(g, c, slices.size(), &got).ok());
      ASSERT_EQ(got.size(), want.size());
      for (size_t i = 0; i < want.size(); ++i) {
        EXPECT_EQ(got[i].count, want[i].count);
        EXPECT_EQ(Bits(got[i].min), Bits(want[i].min));
        EXPECT_EQ(Bits(got[i].max), Bits(want[i].max));
        EXPECT_EQ(Bits(got[i].sum), Bits(want[i].sum));
        EXPECT_EQ(got[i].imin, want[i].imin);
        EXPECT_EQ(got[i].imax, want[i].imax);
        EXPECT_EQ(got[i].isum, want[i].isum);
        EXPECT_EQ(got[i].isum_exact, want[i].isum_exact);
        EXPECT_EQ(got[i].has_numeric, want[i].has_numeric);
      }
    }
  }
  EXPECT_GT(budget->used(), 0u);
  cached->reset();
  EXPECT_EQ(budget->used(), 0u);

  // Slice statistics of the dense int64 column carry the sum of each slice's rows before its
  // half-hour seek point; the sparse one (NULLs) and other types carry none.
  std::vector<ColumnStats> dense, sparse_stats, float_stats;
  ASSERT_TRUE(reader->ReadSliceStats(g, 1, slices.size(), &dense).ok());
  ASSERT_TRUE(reader->ReadSliceStats(g, 5, slices.size(), &sparse_stats).ok());
  ASSERT_TRUE(reader->ReadSliceStats(g, 0, slices.size(), &float_stats).ok());
  size_t with_head = 0;
  for (size_t si = 0; si < slices.size(); ++si) {
    const uint32_t head = SliceHeadRows(layout, slices[si]);
    EXPECT_EQ(dense[si].has_head, head > 0) << "slice " << si;
    EXPECT_FALSE(sparse_stats[si].has_head);
    EXPECT_FALSE(float_stats[si].has_head);
    if (head == 0) continue;
    ++with_head;
    EXPECT_EQ(head, 180u);
    int64_t want = 0;
    for (uint32_t r = slices[si].first_row; r < slices[si].first_row + head; ++r) want += *ints[r];
    EXPECT_EQ(dense[si].head_isum, want) << "slice " << si;
  }
  EXPECT_GE(with_head, 20u);

  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 60; ++trial) {
    std::vector<std::pair<uint32_t, uint32_t>> ranges;
    uint32_t at = static_cast<uint32_t>(rng() % 400);
    const int k = 1 + static_cast<int>(rng() % 3);
    for (int j = 0; j < k && at < n; ++j) {
      const uint32_t e = std::min<uint32_t>(n, at + static_cast<uint32_t>(rng() % 3000));
      ranges.emplace_back(at, e);
      at = e + static_cast<uint32_t>(rng() % 2000);
    }
    for (size_t c = 0; c < columns.size(); ++c) {
      SCOPED_TRACE("column " + columns[c].name + " trial " + std::to_string(trial));
      DecodedColumn whole, part;
      ASSERT_TRUE(reader->ReadColumn(g, c, &whole).ok());
      std::vector<uint8_t> keep(n, 0);
      size_t rows = 0;
      for (const auto& [b, e] : ranges) {
        std::fill(keep.begin() + b, keep.begin() + e, uint8_t{1});
        rows += e - b;
      }
      whole.KeepRows(keep);
      Status st = reader->ReadColumnRows(g, c, ranges, &part);
      ASSERT_TRUE(st.ok()) << st.ToString();
      NormalColumn want, got;
      testing::AppendDecoded(whole, rows, &want);
      testing::AppendDecoded(part, rows, &got);
      EXPECT_EQ(got, want);
    }
  }
}

TEST_F(SegmentTest, StatisticsPerRowGroup) {
  const size_t n = kRowsPerGroup + 10;
  SortedSeries s;
  std::vector<std::optional<double>> f;
  std::vector<std::optional<int64_t>> i;
  std::vector<std::optional<uint64_t>> u;
  std::vector<std::optional<bool>> b;
  std::vector<std::optional<std::string>> str;
  for (size_t r = 0; r < n; ++r) {
    s.times.push_back(static_cast<int64_t>(r));
    const bool second = r >= kRowsPerGroup;
    // Group 0: NaN first (must not stick as min/max), then values; group 1: only NaN and NULL.
    if (second) {
      f.push_back(r % 2 ? std::optional<double>(kNaN) : std::nullopt);
    } else {
      f.push_back(r == 0 ? kNaN : (r == 7 ? -kInf : static_cast<double>(r % 100) - 50.5));
    }
    i.push_back(r % 3 == 0 ? std::nullopt
                           : std::optional<int64_t>(static_cast<int64_t>(r) * (r % 2 ? -1 : 1)));
    u.push_back(static_cast<uint64_t>(r) * 3);
    b.push_back(second ? std::optional<bool>(false) : std::optional<bool>(r % 4 == 1));
    str.push_back(r % 2 ? std::optional<std::string>("") : std::nullopt);
  }
  s.columns = {Floats(f), Ints(i), UInts(u), Bools(b), Strings(str)};
  SegmentIndex written;
  auto reader = WriteAndOpen(AllTypes(), {{1, s}}, &written);
  ASSERT_NE(reader, nullptr);

  const std::optional<SeriesMeta> meta = reader->FindSeries(1);
  ASSERT_TRUE(meta.has_value());
  ASSERT_EQ(meta->num_groups, 2u);
  for (uint32_t g = 0; g < 2; ++g) {
    const RowGroupMeta group = reader->group(*meta, g);
    for (size_t c = 0; c < 5; ++c) {
      SCOPED_TRACE("group " + std::to_string(g) + " column " + std::to_string(c));
      ExpectedStats want = Expect(s.columns[c], g * kRowsPerGroup, group.rows);
      // Both the writer's index and the one decoded from the file.
      ExpectStatsMatch(reader->chunk(group, c).stats, want, AllTypes()[c].type);
      ExpectStatsMatch(written.chunks[group.first_column + c].stats, want, AllTypes()[c].type);
    }
  }
  // Spot checks of the values themselves.
  const RowGroupMeta g0 = reader->group(*meta, 0);
  EXPECT_EQ(reader->chunk(g0, 0).stats.min, -kInf);
  EXPECT_EQ(reader->chunk(g0, 0).stats.max, 48.5);
  EXPECT_EQ(reader->chunk(g0, 0).stats.count, kRowsPerGroup);
  EXPECT_EQ(reader->chunk(g0, 3).stats.min, 0.0);
  EXPECT_EQ(reader->chunk(g0, 3).stats.max, 1.0);
  EXPECT_EQ(reader->chunk(g0, 3).stats.sum, kRowsPerGroup / 4);
  EXPECT_EQ(reader->chunk(g0, 2).stats.min, 0.0);
  EXPECT_EQ(reader->chunk(g0, 4).stats.count, kRowsPerGroup / 2);
  EXPECT_FALSE(reader->chunk(g0, 4).stats.has_numeric);
  const RowGroupMeta g1 = reader->group(*meta, 1);
  EXPECT_EQ(reader->chunk(g1, 0).stats.count, 5u);  // the NaNs count as values
  EXPECT_EQ(reader->chunk(g1, 3).stats.max, 0.0);
}

TEST_F(SegmentTest, FindSeriesAndFindColumn) {
  std::vector<std::pair<SeriesId, SortedSeries>> series;
  for (SeriesId id : {0u, 3u, 4u, 100u, 4000000000u}) {
    SortedSeries s;
    s.times = {static_cast<int64_t>(id)};
    s.columns = {Floats({1.0})};
    series.emplace_back(id, s);
  }
  auto reader = WriteAndOpen(AllTypes(), series, nullptr);
  ASSERT_NE(reader, nullptr);
  for (const auto& [id, data] : series) {
    const std::optional<SeriesMeta> m = reader->FindSeries(id);
    ASSERT_TRUE(m.has_value()) << id;
    EXPECT_EQ(m->id, id);
    EXPECT_EQ(m->min_time, static_cast<int64_t>(id));
  }
  for (SeriesId missing : {1u, 2u, 5u, 99u, 101u, 4000000001u}) {
    EXPECT_FALSE(reader->FindSeries(missing).has_value()) << missing;
  }
  EXPECT_EQ(reader->FindColumn("f", ValueType::kFloat64), 0);
  EXPECT_EQ(reader->FindColumn("s", ValueType::kString), 4);
  EXPECT_EQ(reader->FindColumn("u", ValueType::kUInt64), 2);
  EXPECT_EQ(reader->FindColumn("f", ValueType::kInt64), -1);  // same name, another type
  EXPECT_EQ(reader->FindColumn("nope", ValueType::kFloat64), -1);
  EXPECT_EQ(reader->FindColumn("", ValueType::kFloat64), -1);
}

TEST_F(SegmentTest, EmptySegmentOpens) {
  auto reader = WriteAndOpen(AllTypes(), {}, nullptr);
  ASSERT_NE(reader, nullptr);
  EXPECT_EQ(reader->index().rows, 0u);
  EXPECT_TRUE(reader->index().series.empty());
  EXPECT_FALSE(reader->FindSeries(0).has_value());
}

TEST_F(SegmentTest, ReadsFromRealFiles) {
  // The POSIX env maps the file; the same bytes must read the same way.
  auto series = testing::FixtureSeries();
  const std::string dir = ::testing::TempDir() + "/gnomon_segment_test_" + std::to_string(getpid());
  port::Env* env = port::Env::Default();
  ASSERT_TRUE(env->CreateDirs(dir).ok());
  const std::string path = dir + "/1.seg";
  ASSERT_TRUE(testing::WriteFixtureSegment(env, path).ok());
  auto reader = SegmentReader::Open(env, path);
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  ExpectRoundTrip(**reader, series);
  ASSERT_TRUE(env->RemoveDirRecursive(dir).ok());
}

TEST(SegmentIndexCodec, RoundTripAndEveryTruncation) {
  port::MemEnv env;
  ASSERT_TRUE(env.CreateDirs("/s").ok());
  ASSERT_TRUE(testing::WriteFixtureSegment(&env, "/s/1.seg").ok());
  auto reader = SegmentReader::Open(&env, "/s/1.seg");
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  std::string bytes;
  EncodeSegmentIndex((*reader)->index(), &bytes);
  SegmentIndex decoded;
  ASSERT_TRUE(DecodeSegmentIndex(bytes, &decoded).ok());
  std::string again;
  EncodeSegmentIndex(decoded, &again);
  EXPECT_EQ(again, bytes);
  for (size_t len = 0; len < bytes.size(); ++len) {
    SegmentIndex partial;
    Status s = DecodeSegmentIndex(std::string_view(bytes).substr(0, len), &partial);
    EXPECT_TRUE(s.IsCorruption()) << "prefix of " << len << " bytes: " << s.ToString();
  }
  SegmentIndex extra;
  Status s = DecodeSegmentIndex(bytes + '\0', &extra);
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
}

TEST(SegmentIndexCodec, GroupTimeSpansAtTheEndsOfInt64) {
  SegmentIndex index;
  index.table = "t";
  index.columns = {{"x", ValueType::kInt64}};
  index.series.push_back(SeriesMeta{1, 0, 1, 1, 0, 0});
  RowGroupMeta group;
  group.rows = 2;
  group.min_time = std::numeric_limits<int64_t>::min();
  group.max_time = std::numeric_limits<int64_t>::max();
  index.groups = {group};
  index.chunks = {ColumnChunkMeta{}};
  std::string bytes;
  EncodeSegmentIndex(index, &bytes);
  SegmentIndex decoded;
  ASSERT_TRUE(DecodeSegmentIndex(bytes, &decoded).ok());
  EXPECT_EQ(decoded.groups[0].min_time, group.min_time);
  EXPECT_EQ(decoded.groups[0].max_time, group.max_time);
  // A span that would carry max_time past INT64_MAX (here: an encoded max below min) is corrupt,
  // not a wrapped time.
  index.groups[0].min_time = 10;
  index.groups[0].max_time = 5;
  bytes.clear();
  EncodeSegmentIndex(index, &bytes);
  Status s = DecodeSegmentIndex(bytes, &decoded);
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
}

}  // namespace
}  // namespace gnomon::storage
