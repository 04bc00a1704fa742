// A full or failing disk under the WAL: the write is refused with the disk's error (NoSpace for a
// full disk), nothing acknowledged is lost, reads go on, and once the disk works again the engine
// reopens the WAL by itself (ReopenWalAfterFailure) and takes writes; the failed log is never
// replayed, so after a power loss every acknowledged row is there and the refused ones are not.
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "src/port/fault_injection_env.h"
#include "src/port/mem_env.h"
#include "src/storage/engine.h"
#include "src/storage/storage_test_util.h"

namespace gnomon::storage {
namespace {

using testing::AddRow;
using testing::AllSeries;
using testing::CollectingConsumer;
using testing::Host;

class WalFailureTest : public ::testing::Test {
 protected:
  void Open() {
    EngineOptions options;
    options.data_dir = "/data";
    options.env = &faults_;
    options.background_work = true;  // the reopening runs in the background loop
    auto e = Engine::Open(options);
    ASSERT_TRUE(e.ok()) << e.status().ToString();
    engine_ = std::move(e).value();
  }

  Status Write(int64_t time) {
    WriteBatch batch("db");
    AddRow(&batch, "cpu", {Host("h"), time, {{"v", time}}});
    return engine_->Write(batch, WriteOptions{}).status();
  }

  std::set<int64_t> Times() {
    std::set<int64_t> times;
    auto reader = engine_->OpenTable("db", "cpu");
    EXPECT_TRUE(reader.ok()) << reader.status().ToString();
    if (!reader.ok()) return times;
    CollectingConsumer c;
    EXPECT_TRUE((*reader)->Scan(AllSeries(**reader, {"v"}), &c, nullptr).ok());
    for (const auto& [id, rows] : c.rows) {
      for (const auto& [time, values] : rows) times.insert(time);
    }
    return times;
  }

  // Retries a write until the engine takes it again (the loop wakes every second).
  bool WriteOnceHealed(int64_t time) {
    for (int i = 0; i < 300; ++i) {
      if (Write(time).ok()) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return false;
  }

  port::MemEnv mem_;
  port::FaultInjectionEnv faults_{&mem_};
  std::unique_ptr<Engine> engine_;
};

TEST_F(WalFailureTest, AFullDiskRefusesWritesKeepsReadsAndHealsByItself) {
  Open();
  ASSERT_TRUE(Write(1).ok());
  ASSERT_TRUE(Write(2).ok());
  faults_.FailWritesAfterBytes(10, /*no_space=*/true);
  Status refused = Write(3);
  EXPECT_EQ(refused.code(), Status::Code::kNoSpace) << refused.ToString();
  EXPECT_EQ(Write(4).code(), Status::Code::kNoSpace);  // sticky until the disk has room
  EXPECT_EQ(Times(), (std::set<int64_t>{1, 2}));     // reads go on
  faults_.ClearFaults();
  ASSERT_TRUE(WriteOnceHealed(5));
  EXPECT_EQ(Times(), (std::set<int64_t>{1, 2, 5}));
  // Power loss: what was acknowledged survives, from segments and the new WAL; the refused rows
  // were never applied and do not come back from the failed log.
  faults_.SetFilesystemActive(false);  // the moment of the crash: Close changes nothing
  engine_.reset();
  ASSERT_TRUE(faults_.SimulateCrash().ok());
  Open();
  EXPECT_EQ(Times(), (std::set<int64_t>{1, 2, 5}));
}

TEST_F(WalFailureTest, AFailedFsyncIsNeverRetriedOnTheSameLog) {
  Open();
  ASSERT_TRUE(Write(1).ok());
  faults_.FailSyncsAfter(0);
  Status refused = Write(2);
  EXPECT_EQ(refused.code(), Status::Code::kIOError) << refused.ToString();
  faults_.ClearFaults();
  ASSERT_TRUE(WriteOnceHealed(3));
  faults_.SetFilesystemActive(false);
  engine_.reset();
  ASSERT_TRUE(faults_.SimulateCrash().ok());
  Open();
  EXPECT_EQ(Times(), (std::set<int64_t>{1, 3}));
}

}  // namespace
}  // namespace gnomon::storage
