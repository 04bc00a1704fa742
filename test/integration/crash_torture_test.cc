// The crash harness (src/torture) against the real server: every acknowledged row survives kill -9
// and simulated power loss, at random moments and exactly at each engine fault point.
#include <gtest/gtest.h>

#include <iostream>

#include "src/base/fault_point.h"
#include "src/torture/crash_torture.h"
#include "test/integration/server_process.h"

namespace gnomon::test {
namespace {

const std::string kBinary = std::string(GNOMON_BINARY_DIR) + "/gnomon";

class CrashTortureTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = MakeTempDir("gnomon-torture");
    ASSERT_FALSE(dir_.empty());
    options_.gnomon_binary = kBinary;
    options_.data_dir = dir_ + "/data";
    options_.log = stdout;
  }
  void TearDown() override {
    if (!HasFailure()) RemoveTree(dir_);
  }

  torture::CrashTortureReport Run() {
    auto report = torture::RunCrashTorture(options_);
    EXPECT_TRUE(report.ok()) << report.status().ToString();
    if (!report.ok()) return {};
    std::cout << torture::FormatReport(*report);
    return *report;
  }

  std::string dir_;
  torture::CrashTortureOptions options_;
};

TEST_F(CrashTortureTest, TwentyCyclesOfKillsAndPowerLossesLoseNothingAcknowledged) {
  options_.cycles = 20;
  options_.seed = 20261202;
  torture::CrashTortureReport r = Run();
  EXPECT_TRUE(r.violations.empty()) << "server log: " << options_.data_dir << ".log";
  EXPECT_EQ(r.cycles, 20);
  EXPECT_GT(r.power_loss_cycles, 0);
  EXPECT_GT(r.operations_acknowledged, 100u);
  EXPECT_GT(r.rows_checked, 1000u);
}

TEST_F(CrashTortureTest, DyingAtEachFaultPointLosesNothingAcknowledged) {
  for (std::string_view point : fault::KnownFaultPoints()) options_.fault_points.emplace_back(point);
  // One cycle a point, in the list's order, each armed for its first pass and given time to get
  // there (flushes come every few hundred milliseconds; compactions and deletes soon after).
  options_.cycles = 1;
  options_.fault_point_share = 1;
  options_.max_load = std::chrono::milliseconds(8000);
  std::vector<std::string> missed;
  for (const std::string& point : std::vector<std::string>(options_.fault_points)) {
    SCOPED_TRACE(point);
    options_.fault_points = {point};
    options_.data_dir = dir_ + "/" + point;
    options_.seed += 1;
    torture::CrashTortureReport r = Run();
    EXPECT_TRUE(r.violations.empty()) << "server log: " << options_.data_dir << ".log";
    if (r.fault_points_reached[point] != 1) missed.push_back(point);
  }
  EXPECT_TRUE(missed.empty()) << "fault points never reached: " << testing::PrintToString(missed);
}

// The harness must be able to fail: with --wal-sync none an acknowledgement does not wait for the
// fsync, so a power loss takes acknowledged rows with it, and the harness has to say so.
TEST_F(CrashTortureTest, CatchesTheLossOfAcknowledgedRowsWhenTheWalIsNotSynced) {
  options_.server_args = {"--wal-sync", "none"};
  options_.power_loss = torture::PowerLossMode::kAlways;
  options_.fault_point_share = 0;
  // The run stops at the first violation; a cycle whose crash found every acknowledged byte
  // already synced (a flush just before it) loses nothing, so it takes up to ten.
  options_.cycles = 10;
  options_.log = nullptr;
  torture::CrashTortureReport r = Run();
  ASSERT_FALSE(r.violations.empty());
  EXPECT_NE(r.violations[0].find("missing"), std::string::npos) << r.violations[0];
}

}  // namespace
}  // namespace gnomon::test
