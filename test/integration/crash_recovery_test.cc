// Slow: `kill -9` of the real server in the middle of a TSBS load, three times at different
// points (no flush yet; the moment a background flush starts; a later arbitrary point on a
// directory recovered twice), then a clean stop. After every restart: each acknowledged request's
// rows are all there with the file's values, each unanswered request is all there or all absent
// (and stays so across later crashes), and nothing else is stored.
#include <gtest/gtest.h>

#include <signal.h>

#include <cstdlib>
#include <iostream>
#include <random>

#include "test/integration/ingest_ledger.h"
#include "test/integration/ingest_phase.h"
#include "test/integration/server_process.h"
#include "test/integration/tsbs_cpu_source.h"

namespace gnomon::test {
namespace {

const std::string kBinary = std::string(GNOMON_BINARY_DIR) + "/gnomon";
const std::vector<int> kSampledHosts = {0, 57, 99};
// 1,000 lines = 10 whole time steps of all 100 hosts, so every request holds rows of the sampled hosts.
constexpr size_t kBatchLines = 1000;

class CrashRecoveryTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = MakeTempDir("gnomon-crash");
    ASSERT_FALSE(dir_.empty());
    auto source = TsbsCpuSource::Open(kBatchLines, kSampledHosts);
    ASSERT_TRUE(source.ok()) << source.status().ToString();
    source_ = std::move(*source);
  }
  void TearDown() override {
    if (!HasFailure()) RemoveTree(dir_);
  }

  PhaseReport Run(const PhasePlan& plan, const char* what) {
    PhaseReport r = RunPhase(kBinary, dir_, plan, source_.get(), &ledger_);
    std::string wal;
    for (const auto& f : r.wal_files_at_signal) wal += " " + f;
    std::cout << "[" << what << "] signal " << plan.signal << " after " << r.acked
              << " acknowledged and " << r.unanswered << " unanswered requests; "
              << (plan.point == SignalPoint::kAfterAcks ? "" : r.point_reached ? "point reached; "
                                                                                 : "point NOT reached; ")
              << "WAL segments at the signal:" << wal << std::endl;
    EXPECT_FALSE(r.source_ended) << what << ": the input ran out before the signal";
    return r;
  }

  // Restarts on the directory, checks it against the ledger, and kills the server again without
  // writing anything: the recovered rows must survive a crash that follows recovery at once.
  void RestartAndVerify(const std::vector<std::string>& args, const char* what) {
    ServerProcess server(kBinary, dir_, args);
    Status s = server.Start();
    ASSERT_TRUE(s.ok()) << what << ": " << s.ToString() << " (log " << server.log_path() << ")";
    VerifySummary v = ledger_.Verify(server.port(), "benchmark", kSampledHosts);
    std::cout << "[" << what << "] after restart: " << v.batches_present << " requests ("
              << v.rows_present << " rows) stored; unanswered ones found stored "
              << v.unknown_found_present << ", absent " << v.unknown_found_absent << std::endl;
    EXPECT_EQ(ledger_.CountFate(BatchFate::kUnknown), 0u);
    auto code = server.Stop(SIGKILL);
    ASSERT_TRUE(code.ok());
  }

  std::string dir_;
  std::unique_ptr<TsbsCpuSource> source_;
  IngestLedger ledger_;
};

TEST_F(CrashRecoveryTest, KillNineMidIngestKeepsEveryAcknowledgedRequest) {
  const std::vector<std::string> big_memtable = {};
  // ~46 requests of 1,000 rows fill 4 MiB of memtable: flushes and compactions run during the load.
  const std::vector<std::string> small_memtable = {"--memtable-budget-mb", "4"};

  PhasePlan plan;
  plan.server_args = big_memtable;
  plan.signal = SIGKILL;
  plan.min_new_acks = 100;  // all of it in the WAL and the memtable
  plan.live_read_batch_rows = kBatchLines;
  PhaseReport r = Run(plan, "kill 1: WAL only");
  EXPECT_EQ(r.exit_code, 128 + SIGKILL);
  RestartAndVerify(big_memtable, "kill 1");

  plan.server_args = small_memtable;
  plan.min_new_acks = 80;
  plan.point = SignalPoint::kFlushStart;  // as a freeze rotates the WAL, while segments are written
  r = Run(plan, "kill 2: during a flush");
  EXPECT_EQ(r.exit_code, 128 + SIGKILL);
  RestartAndVerify(small_memtable, "kill 2");

  plan.min_new_acks = 150;
  plan.point = SignalPoint::kAfterAcks;
  r = Run(plan, "kill 3: flushes and compactions behind");
  EXPECT_EQ(r.exit_code, 128 + SIGKILL);
  RestartAndVerify(small_memtable, "kill 3");

  // Short rounds with a 1 MiB memtable (a flush every ~11 requests, a compaction every ~4 flushes),
  // killed at pseudo-random points: after some requests, as a flush starts, during a compaction.
  // GNOMON_CRASH_ROUNDS / GNOMON_CRASH_SEED repeat them for a stress run.
  const std::vector<std::string> tiny_memtable = {"--memtable-budget-mb", "1"};
  const char* rounds_env = std::getenv("GNOMON_CRASH_ROUNDS");
  const char* seed_env = std::getenv("GNOMON_CRASH_SEED");
  const int rounds = rounds_env ? std::atoi(rounds_env) : 3;
  const uint32_t seed = seed_env ? static_cast<uint32_t>(std::atoll(seed_env)) : 20231;
  std::mt19937 rng(seed);
  std::cout << "[random rounds] " << rounds << ", seed " << seed << std::endl;
  for (int round = 0; round < rounds && !HasFailure(); ++round) {
    plan.server_args = tiny_memtable;
    plan.point = static_cast<SignalPoint>(round % 3);
    plan.min_new_acks = std::uniform_int_distribution<uint64_t>(5, 30)(rng);
    std::string what = "round " + std::to_string(round);
    r = Run(plan, what.c_str());
    EXPECT_EQ(r.exit_code, 128 + SIGKILL);
    RestartAndVerify(tiny_memtable, what.c_str());
  }

  // A clean stop under load after all that: still nothing lost.
  plan.server_args = small_memtable;
  plan.point = SignalPoint::kAfterAcks;
  plan.min_new_acks = 30;
  plan.signal = SIGTERM;
  r = Run(plan, "clean stop");
  EXPECT_EQ(r.exit_code, 0);
  RestartAndVerify(small_memtable, "clean stop");
  EXPECT_GE(ledger_.acked(), 400u);
}

}  // namespace
}  // namespace gnomon::test
