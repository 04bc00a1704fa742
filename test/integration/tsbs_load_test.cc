// Slow: the whole TSBS cpu-only file (864,000 lines, 100 hosts x 8,640 points) through the real
// `gnomon server` over HTTP with concurrent keep-alive writers, then checked over /v1/sql against
// the file itself, before and after a clean restart.
#include <gtest/gtest.h>

#include <signal.h>

#include <chrono>
#include <iostream>

#include "test/integration/ingest_ledger.h"
#include "test/integration/ingest_writers.h"
#include "test/integration/live_count_reader.h"
#include "test/integration/server_process.h"
#include "test/integration/sql_query.h"
#include "test/integration/tsbs_cpu_source.h"

namespace gnomon::test {
namespace {

const std::string kBinary = std::string(GNOMON_BINARY_DIR) + "/gnomon";
const std::vector<int> kSampledHosts = {0, 57, 99};
constexpr uint64_t kFileRows = 864000;
constexpr uint64_t kRowsPerHost = 8640;

// The answer of a query with one integer column per row, e.g. a count.
std::vector<std::pair<std::string, int64_t>> Counts(uint16_t port, const std::string& sql) {
  std::vector<std::pair<std::string, int64_t>> out;
  auto result = RunSql(port, "benchmark", sql);
  EXPECT_TRUE(result.ok()) << result.status().ToString();
  if (!result.ok()) return out;
  for (const auto& row : result->rows) {
    const auto& n = row.back();
    out.emplace_back(row.size() > 1 ? row[0].string() : "",
                     n.is_number() ? static_cast<int64_t>(n.number()) : -1);
  }
  return out;
}

void ExpectWholeFile(uint16_t port, IngestLedger* ledger) {
  auto total = Counts(port, "SELECT count(*) FROM cpu");
  ASSERT_EQ(total.size(), 1u);
  EXPECT_EQ(total[0].second, static_cast<int64_t>(kFileRows));
  VerifySummary summary = ledger->Verify(port, "benchmark", kSampledHosts);
  EXPECT_EQ(summary.rows_present, kFileRows);
  auto groups = Counts(port, "SELECT hostname, count(*) FROM cpu GROUP BY hostname");
  EXPECT_EQ(groups.size(), static_cast<size_t>(kTsbsHosts));
  for (const auto& [host, n] : groups) EXPECT_EQ(n, static_cast<int64_t>(kRowsPerHost)) << host;
}

TEST(TsbsLoadTest, WholeCpuOnlyFileRoundTripsAndSurvivesRestart) {
  const std::string dir = MakeTempDir("gnomon-tsbs");
  ASSERT_FALSE(dir.empty());
  auto server = std::make_unique<ServerProcess>(kBinary, dir);
  ASSERT_TRUE(server->Start().ok()) << "see " << server->log_path();

  // 6,250 lines a request: every other request ends in the middle of a time step.
  auto source = TsbsCpuSource::Open(6250, kSampledHosts);
  ASSERT_TRUE(source.ok()) << source.status().ToString();
  IngestLedger ledger;
  auto start = std::chrono::steady_clock::now();
  {
    IngestWriters writers(server->port(), "/write?db=benchmark", source->get(), &ledger, 6);
    LiveCountReader reader(server->port(), &ledger, 6250, kFileRows % 6250);
    writers.Join();
    reader.Stop();
    std::cout << "[ingest] " << reader.queries() << " count(*) queries checked during the load"
              << std::endl;
    for (const std::string& e : writers.errors()) ADD_FAILURE() << e;
    EXPECT_EQ(writers.transport_errors(), 0u);
  }
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::cout << "[ingest] " << kFileRows << " rows in " << seconds << " s: "
            << static_cast<uint64_t>(kFileRows / seconds) << " rows/s (6 writers, 6250-line batches)"
            << std::endl;
  const uint64_t batches = (kFileRows + 6249) / 6250;
  ASSERT_EQ(ledger.acked(), batches) << "every request must be answered 204";
  ASSERT_EQ(ledger.CountFate(BatchFate::kAcked), batches);

  ExpectWholeFile(server->port(), &ledger);

  // A clean shutdown flushes; the restarted server reads the same data back.
  auto code = server->Stop(SIGTERM);
  ASSERT_TRUE(code.ok()) << code.status().ToString();
  EXPECT_EQ(*code, 0);
  server = std::make_unique<ServerProcess>(kBinary, dir);
  ASSERT_TRUE(server->Start().ok()) << "see " << server->log_path();
  ExpectWholeFile(server->port(), &ledger);

  server.reset();
  if (!HasFailure()) RemoveTree(dir);
}

}  // namespace
}  // namespace gnomon::test
