// Table::Compact with its cancel flag: a merge abandoned for a closing engine keeps its inputs
// and every row, leaves no output file behind, and a later merge goes through.
#include "src/storage/table.h"

#include <gtest/gtest.h>

#include <atomic>

#include "src/port/env.h"
#include "src/storage/storage_test_util.h"

namespace gnomon::storage {
namespace {

using testing::AddRow;
using testing::Host;
using testing::SegmentFilesUnder;
using testing::TempDir;

TEST(TableCompactionTest, ACancelledMergeKeepsItsInputsAndLeavesNoFile) {
  TempDir dir;
  auto opened = Table::Open(port::Env::Default(), "cpu", dir.path() + "/cpu", "cpu-1", nullptr);
  ASSERT_TRUE(opened.ok()) << opened.status().ToString();
  std::shared_ptr<Table> table = *opened;
  uint64_t file = 0;
  auto next_file = [&] { return ++file; };
  // Three flushes of 3,000 series each (more than one look at the flag apart) into one partition.
  for (int flush = 0; flush < 3; ++flush) {
    WriteBatch batch("db");
    for (int h = 0; h < 3000; ++h) {
      AddRow(&batch, "cpu", {Host("h" + std::to_string(h)), 1000 * (flush + 1), {{"u", flush * 10000 + h}}});
    }
    PreparedTable prepared;
    std::vector<RowError> rejected;
    ASSERT_TRUE(table->Prepare(*batch.tables()[0], false, &prepared, &rejected).ok());
    table->Apply(*batch.tables()[0], prepared);
    ASSERT_TRUE(table->Freeze());
    auto flushed = table->FlushOldestFrozen(int64_t{86400} * 1000000000, next_file, flush + 1);
    ASSERT_TRUE(flushed.ok()) << flushed.status().ToString();
  }
  ASSERT_EQ(table->ToManifest().segments.size(), 3u);
  ASSERT_EQ(SegmentFilesUnder(table->dir()).size(), 3u);

  std::atomic<bool> cancel{true};
  Status s = table->Compact(2, next_file, INT64_MIN, false, &cancel);
  EXPECT_EQ(s.code(), Status::Code::kAborted) << s.ToString();
  EXPECT_EQ(table->ToManifest().segments.size(), 3u);
  EXPECT_EQ(SegmentFilesUnder(table->dir()).size(), 3u);  // the partial output is gone
  EXPECT_TRUE(table->TakeObsoleteFiles().empty());

  cancel = false;
  ASSERT_TRUE(table->Compact(2, next_file, INT64_MIN, false, &cancel).ok());
  EXPECT_EQ(table->ToManifest().segments.size(), 1u);
  EXPECT_EQ(table->ToManifest().segments[0].rows, 9000u);
}

}  // namespace
}  // namespace gnomon::storage
