// CheckDataDir finds every kind of damage without changing a byte, tells it apart from what a
// normal start-up repairs by itself, and RepairDataDir sets damaged segments aside and cuts a
// damaged WAL so that the engine opens whole again.
#include "src/storage/data_dir_check.h"

#include <gtest/gtest.h>

#include "src/port/fault_injection_env.h"
#include "src/port/mem_env.h"
#include "src/storage/data_dir_layout.h"
#include "src/storage/engine.h"
#include "src/storage/storage_test_util.h"
#include "src/wal/wal.h"

namespace gnomon::storage {
namespace {

using testing::AddRow;
using testing::Host;

constexpr char kDir[] = "/data";

class DataDirCheckTest : public ::testing::Test {
 protected:
  std::unique_ptr<Engine> Open() {
    EngineOptions options;
    options.data_dir = kDir;
    options.env = &env_;
    options.background_work = false;
    auto e = Engine::Open(options);
    EXPECT_TRUE(e.ok()) << e.status().ToString();
    return e.ok() ? std::move(e).value() : nullptr;
  }

  // Two tables with one segment each, stopped cleanly.
  void WriteTwoTables() {
    auto engine = Open();
    ASSERT_NE(engine, nullptr);
    WriteBatch batch("db");
    for (int i = 0; i < 10; ++i) {
      AddRow(&batch, "cpu", {Host("h" + std::to_string(i % 3)), 1000 + i, {{"v", i}}});
      AddRow(&batch, "mem", {Host("h"), 1000 + i, {{"v", i}}});
    }
    ASSERT_TRUE(engine->Write(batch, WriteOptions{}).ok());
    ASSERT_TRUE(engine->Close().ok());
  }

  std::vector<std::string> Segments() {
    std::vector<std::string> out;
    std::function<void(const std::string&)> walk = [&](const std::string& dir) {
      auto children = env_.GetChildren(dir);
      if (!children.ok()) return;
      for (const std::string& c : *children) {
        const std::string path = port::JoinPath(dir, c);
        if (c.size() > 4 && c.substr(c.size() - 4) == ".seg") {
          out.push_back(path);
        } else {
          walk(path);
        }
      }
    };
    walk(port::JoinPath(kDir, kDatabasesDirName));
    std::sort(out.begin(), out.end());
    return out;
  }

  void Flip(const std::string& path, uint64_t offset) {
    port::FaultInjectionEnv faults(&env_);
    ASSERT_TRUE(faults.CorruptByte(path, offset).ok());
  }

  // Every file's bytes, to prove a check changed nothing.
  std::map<std::string, std::string> Snapshot() {
    std::map<std::string, std::string> files;
    std::function<void(const std::string&)> walk = [&](const std::string& dir) {
      auto children = env_.GetChildren(dir);
      if (!children.ok()) return;
      for (const std::string& c : *children) {
        const std::string path = port::JoinPath(dir, c);
        auto bytes = port::ReadFileToString(&env_, path);
        if (bytes.ok()) {
          files[path] = *bytes;
        } else {
          walk(path);
        }
      }
    };
    walk(kDir);
    return files;
  }

  port::MemEnv env_;
};

TEST_F(DataDirCheckTest, ACleanDirectoryChecksCleanAndCounts) {
  WriteTwoTables();
  auto check = CheckDataDir(&env_, kDir);
  ASSERT_TRUE(check.ok()) << check.status().ToString();
  EXPECT_TRUE(check->ok());
  EXPECT_EQ(check->databases, 1u);
  EXPECT_EQ(check->tables, 2u);
  EXPECT_EQ(check->series, 4u);
  EXPECT_EQ(check->segments, 2u);
  EXPECT_GT(check->segment_bytes, 0u);
}

TEST_F(DataDirCheckTest, FindsADamagedSegmentWithoutChangingAnythingAndRepairSetsItAside) {
  WriteTwoTables();
  const std::vector<std::string> segments = Segments();
  ASSERT_EQ(segments.size(), 2u);
  auto size = env_.GetFileSize(segments[0]);
  ASSERT_TRUE(size.ok());
  Flip(segments[0], *size / 2);
  const auto before = Snapshot();

  auto check = CheckDataDir(&env_, kDir);
  ASSERT_TRUE(check.ok()) << check.status().ToString();
  ASSERT_EQ(check->problems.size(), 1u);
  EXPECT_EQ(check->problems[0].path, segments[0]);
  EXPECT_NE(check->problems[0].what.find("offset"), std::string::npos) << check->problems[0].what;
  EXPECT_EQ(check->damaged_segments, std::vector<std::string>{segments[0]});
  EXPECT_EQ(Snapshot(), before);

  auto done = RepairDataDir(&env_, kDir, RepairOptions{});
  ASSERT_TRUE(done.ok()) << done.status().ToString();
  EXPECT_EQ(done->size(), 2u);
  EXPECT_FALSE(env_.FileExists(segments[0]));
  const std::string quarantined =
      port::JoinPath(port::JoinPath(kDir, kQuarantineDirName), segments[0].substr(std::string(kDir).size() + 1));
  EXPECT_TRUE(env_.FileExists(quarantined)) << quarantined;
  auto again = CheckDataDir(&env_, kDir);
  ASSERT_TRUE(again.ok());
  EXPECT_TRUE(again->ok());
  EXPECT_EQ(again->segments, 1u);
  auto engine = Open();
  ASSERT_NE(engine, nullptr);
  EXPECT_EQ(engine->Stats().damaged_segments, 0u);
}

TEST_F(DataDirCheckTest, ADamagedManifestOrRegistryIsAProblem) {
  WriteTwoTables();
  const std::string manifest = port::JoinPath(kDir, "MANIFEST");
  Flip(manifest, 3);
  auto check = CheckDataDir(&env_, kDir);
  ASSERT_TRUE(check.ok());
  ASSERT_EQ(check->problems.size(), 1u);
  EXPECT_EQ(check->problems[0].path, manifest);
  Flip(manifest, 3);  // back

  // The cpu table's registry log: its first series record (after the header) damaged.
  std::string log;
  for (const std::string& seg : Segments()) {
    if (seg.find("/cpu-") != std::string::npos) log = port::DirName(seg) + "/series/series.log";
  }
  ASSERT_TRUE(env_.FileExists(log)) << log;
  Flip(log, 30);
  check = CheckDataDir(&env_, kDir);
  ASSERT_TRUE(check.ok());
  ASSERT_EQ(check->problems.size(), 1u);
  EXPECT_NE(check->problems[0].what.find("series.log"), std::string::npos) << check->problems[0].what;
}

// Every single-byte flip of the manifest, of a segment and of a registry log is found by the
// check and named by file; the engine then either opens with the damage fenced off (a segment:
// the other table still reads) or refuses to open with an error naming the file. Never a crash,
// never a silent success.
TEST_F(DataDirCheckTest, EveryFlipOfEveryFileKindIsFoundNamedAndConfined) {
  WriteTwoTables();
  std::string cpu_segment, cpu_log;
  for (const std::string& seg : Segments()) {
    if (seg.find("/cpu-") != std::string::npos) {
      cpu_segment = seg;
      cpu_log = port::DirName(seg) + "/series/series.log";
    }
  }
  const std::string manifest = port::JoinPath(kDir, "MANIFEST");
  size_t flips = 0;
  for (const std::string& path : {manifest, cpu_segment, cpu_log}) {
    auto size = env_.GetFileSize(path);
    ASSERT_TRUE(size.ok()) << path;
    for (uint64_t offset = 0; offset < *size; ++offset) {
      SCOPED_TRACE(path + " offset " + std::to_string(offset));
      Flip(path, offset);
      ++flips;
      auto check = CheckDataDir(&env_, kDir);
      ASSERT_TRUE(check.ok()) << check.status().ToString();
      ASSERT_FALSE(check->ok());
      bool named = false;
      for (const auto& p : check->problems) named |= p.path == path || p.what.find(path) != std::string::npos;
      EXPECT_TRUE(named) << check->problems[0].path << ": " << check->problems[0].what;
      EngineOptions options;
      options.data_dir = kDir;
      options.env = &env_;
      options.background_work = false;
      auto engine = Engine::Open(options);
      if (engine.ok()) {
        EXPECT_EQ(path, cpu_segment) << "opened with a damaged " << path;
        EXPECT_EQ((*engine)->Stats().damaged_segments, 1u);
        auto mem = (*engine)->OpenTable("db", "mem");
        ASSERT_TRUE(mem.ok());
        testing::CollectingConsumer c;
        EXPECT_TRUE((*mem)->Scan(testing::AllSeries(**mem, {"v"}), &c, nullptr).ok());
        EXPECT_TRUE((*engine)->Close().ok());
      } else {
        EXPECT_NE(engine.status().ToString().find(path), std::string::npos) << engine.status().ToString();
      }
      Flip(path, offset);  // back
    }
  }
  EXPECT_GT(flips, 250u);  // every byte of all three files
  auto check = CheckDataDir(&env_, kDir);
  ASSERT_TRUE(check.ok());
  EXPECT_TRUE(check->ok());
}

TEST_F(DataDirCheckTest, WalDamageInAnOlderSegmentIsAProblemATornTailANote) {
  const std::string wal_dir = port::JoinPath(kDir, kWalDirName);
  {
    wal::WalOptions options;
    options.env = &env_;
    options.dir = wal_dir;
    options.segment_bytes = 1024;
    auto wal = wal::Wal::Open(options);
    ASSERT_TRUE(wal.ok());
    for (int i = 0; i < 40; ++i) ASSERT_TRUE((*wal)->Append(std::string(100, 'a' + i % 26), true).ok());
    ASSERT_TRUE((*wal)->Close().ok());
  }
  auto files = env_.GetChildren(wal_dir);
  ASSERT_TRUE(files.ok());
  std::sort(files->begin(), files->end());
  ASSERT_GE(files->size(), 3u);
  const std::string newest = port::JoinPath(wal_dir, files->back());
  {
    auto tail = env_.NewAppendableFile(newest);
    ASSERT_TRUE(tail.ok());
    ASSERT_TRUE((*tail)->Append("torn").ok());
    ASSERT_TRUE((*tail)->Close().ok());
  }
  auto check = CheckDataDir(&env_, kDir);
  ASSERT_TRUE(check.ok()) << check.status().ToString();
  EXPECT_TRUE(check->ok());
  EXPECT_EQ(check->wal_records, 40u);
  ASSERT_EQ(check->notes.size(), 1u);
  EXPECT_NE(check->notes[0].find("torn WAL tail"), std::string::npos) << check->notes[0];

  Flip(port::JoinPath(wal_dir, (*files)[0]), 300);
  check = CheckDataDir(&env_, kDir);
  ASSERT_TRUE(check.ok());
  ASSERT_EQ(check->problems.size(), 1u);
  EXPECT_TRUE(check->wal_damaged);
  RepairOptions options;
  options.cut_wal = true;
  auto done = RepairDataDir(&env_, kDir, options);
  ASSERT_TRUE(done.ok()) << done.status().ToString();
  check = CheckDataDir(&env_, kDir);
  ASSERT_TRUE(check.ok());
  EXPECT_TRUE(check->ok());
  EXPECT_LT(check->wal_records, 40u);
}

}  // namespace
}  // namespace gnomon::storage
