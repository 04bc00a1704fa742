// `gnomon torture load`, short: writers at full speed and every TSBS devops query type beside
// them for a few seconds, with no failed request, no write stall and every count(*) within the
// writers' tallies. The long run is `make torture-load` (docs/reliability.md).
#include <gtest/gtest.h>

#include <filesystem>

#include "src/torture/load_torture.h"
#include "test/integration/server_process.h"

namespace gnomon::test {
namespace {

TEST(LoadTortureTest, ShortMixedLoadHasNoFailuresAndConsistentCounts) {
  const std::string dir = MakeTempDir("gnomon-load");
  ASSERT_FALSE(dir.empty());
  torture::LoadTortureOptions o;
  o.gnomon_binary = std::string(GNOMON_BINARY_DIR) + "/gnomon";
  o.data_dir = dir + "/data";
  o.duration = std::chrono::seconds(6);
  o.interval = std::chrono::seconds(2);
  o.writers = 2;
  o.query_clients = 1;
  o.hosts = 200;
  o.rows_per_request = 500;
  o.max_write_stall = std::chrono::milliseconds(5000);  // CI shares two cores with other tests
  o.server_args = {"--memtable-budget-mb", "8"};          // flushes happen during the load
  o.log = nullptr;
  auto report = torture::RunLoadTorture(o);
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  EXPECT_TRUE(report->violations.empty()) << torture::FormatLoadReport(*report);
  EXPECT_GT(report->rows_acknowledged, 0u);
  EXPECT_GT(report->count_checks, 0u);
  EXPECT_EQ(report->intervals.size(), 3u);
  EXPECT_GT(report->peak_rss_bytes, 0u);
  RemoveTree(dir);
}

}  // namespace
}  // namespace gnomon::test
