// The segment format cannot drift silently: the fixture segment written today must equal, byte for
// byte, the one checked in under src/storage/testdata/, and the checked-in file must still read as
// the fixture's rows. A deliberate format change regenerates the file (testdata/README.md) and
// bumps kSegmentVersion when old files would no longer read.
#include <gtest/gtest.h>

#include <cstdlib>

#include "src/port/mem_env.h"
#include "src/storage/segment_reader.h"
#include "src/storage/segment_test_util.h"

namespace gnomon::storage {
namespace {

const std::string kTestdata = std::string(GNOMON_SOURCE_DIR) + "/src/storage/testdata/";
const std::string kGoldenPath = kTestdata + "segment_v5.seg";

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
INSTANTIATE_TEST_SUITE_P(Versions, SegmentGoldenRead, ::testing::Values("segment_v5.seg", "segment_v4.seg",
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
  const auto series = testing::FixtureSeries();
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

}  // namespace
}  // namespace gnomon::storage
