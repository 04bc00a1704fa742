// The engine checkpoints its series registries: after a flush once a log holds as many series as
// the snapshot (and the configured minimum), and at a clean close; the series and their rows
// survive every reopen, whether from the snapshot, the log or both.
#include "src/storage/engine.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "src/storage/storage_test_util.h"

namespace gnomon::storage {
namespace {

using testing::AddRow;
using testing::AllSeries;
using testing::CollectingConsumer;
using testing::Host;
using testing::OpenTestEngine;
using testing::TempDir;

class RegistryCheckpointTest : public ::testing::Test {
 protected:
  void Open(uint32_t flush_series, uint32_t close_series) {
    if (engine_) ASSERT_TRUE(engine_->Close().ok());
    engine_.reset();  // releases the directory lock
    engine_ = OpenTestEngine(dir_.path(), [&](EngineOptions* o) {
      o->registry_checkpoint_series = flush_series;
      o->registry_close_checkpoint_series = close_series;
    });
    ASSERT_NE(engine_, nullptr);
  }
  void TearDown() override {
    if (engine_) EXPECT_TRUE(engine_->Close().ok());
  }

  // Hosts [from, to), one row each at time 10 with u = the host's number.
  void WriteHosts(int from, int to) {
    WriteBatch batch("db");
    for (int h = from; h < to; ++h) AddRow(&batch, "cpu", {Host("h" + std::to_string(h)), 10, {{"u", h}}});
    auto r = engine_->Write(batch, {});
    ASSERT_TRUE(r.ok()) << r.status().ToString();
  }

  // The table's registry files: the snapshot's size (0: none) and the log's.
  std::pair<uintmax_t, uintmax_t> RegistryFiles() const {
    uintmax_t snap = 0, log = 0;
    for (const auto& e : std::filesystem::recursive_directory_iterator(dir_.path())) {
      if (e.path().filename() == "series.snap") snap = e.file_size();
      if (e.path().filename() == "series.log") log = e.file_size();
    }
    return {snap, log};
  }

  // Every host [0, n) is a series of its own holding its one row.
  void ExpectHosts(int n) {
    auto reader = engine_->OpenTable("db", "cpu");
    ASSERT_TRUE(reader.ok()) << reader.status().ToString();
    ASSERT_EQ((*reader)->SeriesCount(), static_cast<size_t>(n));
    CollectingConsumer c;
    ASSERT_TRUE((*reader)->Scan(AllSeries(**reader, {"u"}), &c, nullptr).ok());
    ASSERT_EQ(c.rows.size(), static_cast<size_t>(n));
    for (int h = 0; h < n; ++h) {
      const std::vector<SeriesId> ids = (*reader)->SeriesWithTag("hostname", "h" + std::to_string(h));
      ASSERT_EQ(ids.size(), 1u) << h;
      ASSERT_EQ(c.rows[ids[0]][10], std::vector<std::string>{std::to_string(h)}) << h;
    }
  }

  TempDir dir_;
  std::unique_ptr<Engine> engine_;
};

TEST_F(RegistryCheckpointTest, AFlushCheckpointsOnceTheLogHoldsAsManyAsTheSnapshot) {
  Open(/*flush_series=*/5, /*close_series=*/1000);
  WriteHosts(0, 4);
  ASSERT_TRUE(engine_->Flush().ok());
  EXPECT_EQ(RegistryFiles().first, 0u) << "4 series in the log: under the minimum of 5";
  WriteHosts(4, 10);
  ASSERT_TRUE(engine_->Flush().ok());
  const auto [snap10, empty_log] = RegistryFiles();
  EXPECT_GT(snap10, 0u);
  WriteHosts(10, 17);
  ASSERT_TRUE(engine_->Flush().ok());
  const auto [snap_still, log7] = RegistryFiles();
  EXPECT_EQ(snap_still, snap10) << "7 series in the log, 10 in the snapshot: not yet";
  EXPECT_GT(log7, empty_log);
  WriteHosts(17, 21);
  ASSERT_TRUE(engine_->Flush().ok());
  const auto [snap21, log0] = RegistryFiles();
  EXPECT_GT(snap21, snap10);
  EXPECT_EQ(log0, empty_log) << "the log restarts empty after a checkpoint";
  ExpectHosts(21);
  WriteHosts(21, 23);  // these stay in the log (close minimum 1000) and the WAL
  Open(5, 1000);
  EXPECT_EQ(RegistryFiles().first, snap21);
  ExpectHosts(23);
}

TEST_F(RegistryCheckpointTest, ACleanCloseCheckpointsOnceTheLogHoldsTheCloseMinimum) {
  Open(/*flush_series=*/1000, /*close_series=*/3);
  WriteHosts(0, 2);
  Open(1000, 3);
  EXPECT_EQ(RegistryFiles().first, 0u) << "2 series: under the close minimum";
  ExpectHosts(2);
  WriteHosts(2, 6);
  Open(1000, 3);
  EXPECT_GT(RegistryFiles().first, 0u);
  ExpectHosts(6);
  // Rows only in the WAL name their series by id: the snapshot must give them the same ids.
  WriteHosts(6, 7);
  Open(1000, 3);
  ExpectHosts(7);
}

}  // namespace
}  // namespace gnomon::storage
