// `--wal-sync none` (acknowledge once the WAL write reached the OS, no fsync): a clean shutdown
// still keeps every acknowledged row, both after a quiet load and when SIGTERM arrives while
// concurrent writers are mid-request; and so does kill -9 (a process crash, not a power loss).
#include <gtest/gtest.h>

#include <signal.h>

#include "test/integration/ingest_ledger.h"
#include "test/integration/ingest_phase.h"
#include "test/integration/ingest_writers.h"
#include "test/integration/server_process.h"
#include "test/integration/tsbs_cpu_source.h"

namespace gnomon::test {
namespace {

const std::string kBinary = std::string(GNOMON_BINARY_DIR) + "/gnomon";
const std::vector<int> kSampledHosts = {3, 42, 98};
// Small enough that some rows are in segments and some only in the memtable at shutdown.
const std::vector<std::string> kArgs = {"--wal-sync", "none", "--memtable-budget-mb", "4"};

TEST(WalSyncNoneTest, CleanShutdownKeepsEverything) {
  const std::string dir = MakeTempDir("gnomon-nosync");
  ASSERT_FALSE(dir.empty());
  IngestLedger ledger;
  {
    ServerProcess server(kBinary, dir, kArgs);
    ASSERT_TRUE(server.Start().ok()) << "see " << server.log_path();
    // The first 200,000 lines, every request acknowledged, then SIGTERM on an idle server.
    auto first = TsbsCpuSource::Open(5000, kSampledHosts, 200000);
    ASSERT_TRUE(first.ok());
    IngestWriters writers(server.port(), "/write?db=benchmark", first->get(), &ledger, 4);
    writers.Join();
    for (const std::string& e : writers.errors()) ADD_FAILURE() << e;
    ASSERT_EQ(ledger.acked(), 40u);
    // A clean stop flushes every memtable first: minutes under ThreadSanitizer, seconds here.
    auto code = server.Stop(SIGTERM, std::chrono::seconds(600));
    ASSERT_TRUE(code.ok());
    EXPECT_EQ(*code, 0);
  }
  {
    ServerProcess server(kBinary, dir, kArgs);
    ASSERT_TRUE(server.Start().ok()) << "see " << server.log_path();
    VerifySummary v = ledger.Verify(server.port(), "benchmark", kSampledHosts);
    EXPECT_EQ(v.rows_present, 200000u);
    ASSERT_TRUE(server.Stop(SIGTERM).ok());
  }
  if (!HasFailure()) RemoveTree(dir);
}

TEST(WalSyncNoneTest, SigtermUnderLoadKeepsEveryAcknowledgedRequest) {
  const std::string dir = MakeTempDir("gnomon-nosync");
  ASSERT_FALSE(dir.empty());
  auto source = TsbsCpuSource::Open(1000, kSampledHosts);
  ASSERT_TRUE(source.ok()) << source.status().ToString();
  IngestLedger ledger;
  PhasePlan plan;
  plan.server_args = kArgs;
  plan.signal = SIGTERM;
  plan.min_new_acks = 120;
  PhaseReport r = RunPhase(kBinary, dir, plan, source->get(), &ledger);
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_FALSE(r.source_ended);
  ServerProcess server(kBinary, dir, kArgs);
  ASSERT_TRUE(server.Start().ok()) << "see " << server.log_path();
  VerifySummary v = ledger.Verify(server.port(), "benchmark", kSampledHosts);
  EXPECT_GE(v.batches_present, 120u);
  ASSERT_TRUE(server.Stop(SIGTERM).ok());
  if (!HasFailure()) RemoveTree(dir);
}

// Without fsync a write is acknowledged once it reached the OS: it survives a crash of the
// process (not of the machine), so kill -9 must not lose it either.
TEST(WalSyncNoneTest, KillNineKeepsEveryAcknowledgedRequest) {
  const std::string dir = MakeTempDir("gnomon-nosync");
  ASSERT_FALSE(dir.empty());
  auto source = TsbsCpuSource::Open(1000, kSampledHosts);
  ASSERT_TRUE(source.ok()) << source.status().ToString();
  IngestLedger ledger;
  PhasePlan plan;
  plan.server_args = kArgs;
  plan.signal = SIGKILL;
  plan.min_new_acks = 100;
  PhaseReport r = RunPhase(kBinary, dir, plan, source->get(), &ledger);
  EXPECT_EQ(r.exit_code, 128 + SIGKILL);
  EXPECT_FALSE(r.source_ended);
  ServerProcess server(kBinary, dir, kArgs);
  ASSERT_TRUE(server.Start().ok()) << "see " << server.log_path();
  VerifySummary v = ledger.Verify(server.port(), "benchmark", kSampledHosts);
  EXPECT_GE(v.batches_present, 100u);
  ASSERT_TRUE(server.Stop(SIGTERM).ok());
  if (!HasFailure()) RemoveTree(dir);
}

}  // namespace
}  // namespace gnomon::test
