// The segment format cannot drift silently: the fixture segment written today must equal, byte for
// byte, the one checked in under src/storage/testdata/, and the checked-in file must still read as
// the fixture's rows. A deliberate format change regenerates the file (testdata/README.md) and
// bumps kSegmentVersion when old files would no longer read.
#include <gtest/gtest.h>

#include <cstdlib>

#include "src/port/mem_env.h"
#include "src/storage/column_stats.h"
#include "src/storage/segment_reader.h"
#include "src/storage/segment_writer.h"
#include "src/storage/segment_test_util.h"

namespace gnomon::storage {
namespace {

const std::string kTestdata = std::string(GNOMON_SOURCE_DIR) + "/src/storage/testdata/";
const std::string kGoldenPath = kTestdata + "segment_v7.seg";

std::string WriteFixtureBytes() {
  port::MemEnv env;
  EXPECT_TRUE(env.CreateDirs("/g").ok());
  EXPECT_TRUE(testing::WriteFixtureSegment(&env, "/g/1.seg").ok());
  auto bytes = port::ReadFileToString(&env, "/g/1.seg");
  EXPECT_TRUE(bytes.ok());
  return bytes.ok() ? *bytes : std::string();
}

TEST(SegmentGolden, WriterProducesTheCheckedInBytes) {
  const std::string fresh = WriteFixtureBytes();
  ASSERT_FALSE(fresh.empty());
  port::Env* env = port::Env::Default();
  if (std::getenv("GNOMON_REGENERATE_GOLDEN") != nullptr) {
    ASSERT_TRUE(port::WriteFileAtomic(env, kGoldenPath, fresh).ok());
    GTEST_SKIP() << "regenerated " << kGoldenPath << " (" << fresh.size() << " bytes)";
  }
  auto golden = port::ReadFileToString(env, kGoldenPath);
  ASSERT_TRUE(golden.ok()) << golden.status().ToString();
  if (*golden == fresh) return;
  size_t diff = 0;
  while (diff < golden->size() && diff < fresh.size() && (*golden)[diff] == fresh[diff]) ++diff;
  FAIL() << "segment bytes differ from " << kGoldenPath << " at offset " << diff << " (golden "
         << golden->size() << " bytes, writer " << fresh.size()
         << " bytes). If the format change is intended, see src/storage/testdata/README.md.";
}

class SegmentGoldenRead : public ::testing::TestWithParam<std::string> {};

// The current file and every older version the reader still accepts.
INSTANTIATE_TEST_SUITE_P(Versions, SegmentGoldenRead, ::testing::Values("segment_v7.seg", "segment_v6.seg", "segment_v5.seg", "segment_v4.seg",
                                                                           "segment_v3.seg", "segment_v2.seg"));

TEST_P(SegmentGoldenRead, CheckedInFileReadsAsTheFixture) {
  auto reader = SegmentReader::Open(port::Env::Default(), kTestdata + GetParam());
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  const SegmentIndex& idx = (*reader)->index();
  EXPECT_EQ(idx.table, "fixture");
  ASSERT_EQ(idx.columns.size(), testing::FixtureColumns().size());
  for (size_t c = 0; c < idx.columns.size(); ++c) {
    EXPECT_EQ(idx.columns[c].name, testing::FixtureColumns()[c].name);
    EXPECT_EQ(idx.columns[c].type, testing::FixtureColumns()[c].type);
  }
  const auto series = testing::FixtureSeries((*reader)->version());
  ASSERT_EQ(idx.series.size(), series.size());
  uint64_t rows = 0;
  for (const auto& [id, data] : series) {
    SCOPED_TRACE("series " + std::to_string(id));
    const std::optional<SeriesMeta> meta = (*reader)->FindSeries(id);
    ASSERT_TRUE(meta.has_value());
    std::vector<int64_t> times;
    std::vector<testing::NormalColumn> cols;
    Status s = testing::ReadBack(**reader, *meta, &times, &cols);
    ASSERT_TRUE(s.ok()) << s.ToString();
    EXPECT_EQ(times, data.times);
    for (size_t c = 0; c < cols.size(); ++c) {
      testing::NormalColumn want = testing::Normalize(data.columns[c], data.times.size());
      EXPECT_EQ(cols[c], want) << "column " << idx.columns[c].name;
    }
    rows += data.times.size();
  }
  EXPECT_EQ(idx.rows, rows);
  EXPECT_EQ((*reader)->FindSeries(9)->num_groups, 2u);
}

// Every hour slice's statistics, as each version stored them, are those of the fixture's rows.
TEST_P(SegmentGoldenRead, SliceStatisticsAreTheFixtureRowsStatistics) {
  auto reader = SegmentReader::Open(port::Env::Default(), kTestdata + GetParam());
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  const SegmentIndex& idx = (*reader)->index();
  const auto fixture = testing::FixtureSeries((*reader)->version());
  const SortedSeries& data = fixture[1].second;  // series 9: two groups, 22.8 or 45.5 hours
  const std::optional<SeriesMeta> meta = (*reader)->FindSeries(9);
  ASSERT_TRUE(meta.has_value());
  size_t begin = 0, checked = 0;
  for (uint32_t g = 0; g < meta->num_groups; ++g) {
    const RowGroupMeta group = SeriesGroup(idx, *meta, g);
    std::vector<SliceInfo> slices;
    ASSERT_TRUE((*reader)->ReadSlices(group, &slices).ok());
    const encoding::ChunkLayout layout = ChunkLayoutForSlices(slices, group.rows);
    for (size_t c = 0; c < idx.columns.size(); ++c) {
      if (data.columns[c].type == ValueType::kNull) continue;
      std::vector<ColumnStats> got;
      const Status s = (*reader)->ReadSliceStats(group, c, slices.size(), &got);
      ASSERT_TRUE(s.ok()) << s.ToString();
      for (size_t i = 0; i < slices.size() && slices.size() > 1; ++i) {
        SCOPED_TRACE("group " + std::to_string(g) + " column " + idx.columns[c].name + " slice " + std::to_string(i));
        const ColumnStats want = ComputeStats(data.columns[c], begin + slices[i].first_row, slices[i].rows);
        if (want.count == 0 && (*reader)->index().chunks[group.first_column + c].presence == ColumnChunkMeta::kAbsent) {
          continue;
        }
        EXPECT_EQ(got[i].count, want.count);
        if (idx.columns[c].type == ValueType::kInt64) {
          EXPECT_EQ(got[i].imin, want.imin);
          EXPECT_EQ(got[i].imax, want.imax);
          EXPECT_EQ(got[i].isum, want.isum);
        } else if (idx.columns[c].type != ValueType::kString) {
          EXPECT_EQ(got[i].min, want.min);
          EXPECT_EQ(got[i].max, want.max);
          EXPECT_EQ(got[i].sum, want.sum);
        }
        if (got[i].has_head) {
          const uint32_t head = SliceHeadRows(layout, slices[i]);
          ASSERT_GT(head, 0u);
          EXPECT_EQ(got[i].head_isum, ComputeStats(data.columns[c], begin + slices[i].first_row, head).isum);
        }
        ++checked;
      }
    }
    begin += group.rows;
  }
  EXPECT_GT(checked, 40u);
}

}  // namespace
}  // namespace gnomon::storage
