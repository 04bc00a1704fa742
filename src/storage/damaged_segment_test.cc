// A damaged segment file is confined: the engine still opens, the damaged file's time range
// answers with an error naming it, every other partition and table stays readable and writable,
// deletes over it are refused before they are logged, compaction leaves its partition alone, the
// last-value cache refuses to answer, and retention still ages it out.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>

#include "src/base/time_util.h"
#include "src/storage/engine.h"
#include "src/storage/storage_test_util.h"

namespace gnomon::storage {
namespace {

using testing::AddRow;
using testing::AllSeries;
using testing::CollectingConsumer;
using testing::Host;
using testing::TempDir;

class DamagedSegmentTest : public ::testing::Test {
 protected:
  void SetUp() override {
    today_ = FloorDiv(NowNanos(), kNanosPerDay) * kNanosPerDay;
    old_ = today_ - 3 * kNanosPerDay;
    Reopen();
    // First flush: cpu's and mem's old partition. Second: one more cpu segment there (so that
    // compaction would have work) and cpu's today. cpu's first file is then its old partition.
    WriteBatch batch("db");
    for (int i = 0; i < 4; ++i) {
      AddRow(&batch, "cpu", {Host("h"), old_ + i, {{"v", 300 + i}}});
      AddRow(&batch, "mem", {Host("h"), old_ + i, {{"v", 700 + i}}});
    }
    ASSERT_TRUE(engine_->Write(batch, WriteOptions{}).ok());
    ASSERT_TRUE(engine_->Flush().ok());
    WriteBatch more("db");
    AddRow(&more, "cpu", {Host("h"), old_ + 10, {{"v", 310}}});
    for (int i = 0; i < 4; ++i) AddRow(&more, "cpu", {Host("h"), today_ + i, {{"v", i}}});
    ASSERT_TRUE(engine_->Write(more, WriteOptions{}).ok());
    ASSERT_TRUE(engine_->Flush().ok());
  }
  void TearDown() override {
    if (engine_) EXPECT_TRUE(engine_->Close().ok());
  }

  void Reopen() {
    if (engine_) ASSERT_TRUE(engine_->Close().ok());
    engine_.reset();  // releases the directory lock
    engine_ = testing::OpenTestEngine(dir_.path(), [&](EngineOptions* o) {
      o->partition_duration_ns = kNanosPerDay;
      o->retention_ns = retention_;
    });
    ASSERT_NE(engine_, nullptr);
  }

  // The segment files of table `table`, oldest first (file numbers grow).
  std::vector<std::string> SegmentFiles(const std::string& table) {
    std::vector<std::string> files;
    for (const auto& db : std::filesystem::directory_iterator(dir_.path() + "/db")) {
      for (const auto& t : std::filesystem::directory_iterator(db.path())) {
        if (t.path().filename().string().rfind(table + "-", 0) != 0) continue;
        for (const auto& f : std::filesystem::directory_iterator(t.path())) {
          if (f.path().extension() == ".seg") files.push_back(f.path().string());
        }
      }
    }
    std::sort(files.begin(), files.end());
    return files;
  }

  static void FlipByte(const std::string& path, std::streamoff offset) {
    std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
    ASSERT_TRUE(f.good()) << path;
    f.seekg(offset);
    char c = 0;
    f.read(&c, 1);
    c = static_cast<char>(c ^ 0x40);
    f.seekp(offset);
    f.write(&c, 1);
  }

  // Damages cpu's first segment (in its old partition, beside a healthy one) and reopens.
  std::string DamageOldCpuSegment() {
    std::vector<std::string> files = SegmentFiles("cpu");
    EXPECT_EQ(files.size(), 3u);
    if (files.empty()) return "";
    FlipByte(files[0], static_cast<std::streamoff>(std::filesystem::file_size(files[0]) / 2));
    Reopen();
    return files[0];
  }

  Status ScanRange(const std::string& table, int64_t min_time, int64_t max_time, size_t* rows = nullptr) {
    auto reader = engine_->OpenTable("db", table);
    if (!reader.ok()) return reader.status();
    ScanSpec spec = AllSeries(**reader, {"v"});
    spec.min_time = min_time;
    spec.max_time = max_time;
    CollectingConsumer c;
    GNOMON_RETURN_IF_ERROR((*reader)->Scan(spec, &c, nullptr));
    if (rows != nullptr) {
      *rows = 0;
      for (const auto& [id, r] : c.rows) *rows += r.size();
    }
    return Status::OK();
  }

  TempDir dir_;
  int64_t retention_ = 0;
  int64_t today_ = 0;
  int64_t old_ = 0;
  std::unique_ptr<Engine> engine_;
};

TEST_F(DamagedSegmentTest, EngineOpensAndFencesOffOnlyTheDamagedRange) {
  const std::string victim = DamageOldCpuSegment();
  EXPECT_EQ(engine_->Stats().damaged_segments, 1u);
  Status old_scan = ScanRange("cpu", old_, old_ + kNanosPerDay - 1);
  EXPECT_TRUE(old_scan.IsCorruption());
  EXPECT_NE(old_scan.message().find(victim), std::string::npos) << old_scan.ToString();
  size_t rows = 0;
  ASSERT_TRUE(ScanRange("cpu", today_, today_ + kNanosPerDay - 1, &rows).ok());
  EXPECT_EQ(rows, 4u);
  // The other table is untouched, and writes go on everywhere.
  ASSERT_TRUE(ScanRange("mem", INT64_MIN, INT64_MAX, &rows).ok());
  EXPECT_EQ(rows, 4u);
  WriteBatch batch("db");
  AddRow(&batch, "cpu", {Host("h2"), today_ + 100, {{"v", 1}}});
  ASSERT_TRUE(engine_->Write(batch, WriteOptions{}).ok());
  ASSERT_TRUE(engine_->Flush().ok());
  // The damaged file stays listed across restarts (nothing deletes it as unlisted).
  Reopen();
  EXPECT_TRUE(std::filesystem::exists(victim));
  EXPECT_EQ(engine_->Stats().damaged_segments, 1u);
}

TEST_F(DamagedSegmentTest, LastValuesDeletesAndCompactionRespectTheDamage) {
  const std::string victim = DamageOldCpuSegment();
  auto reader = engine_->OpenTable("db", "cpu");
  ASSERT_TRUE(reader.ok());
  Status lv = (*reader)->CheckLastValues();
  EXPECT_TRUE(lv.IsCorruption());
  EXPECT_NE(lv.message().find(victim), std::string::npos);
  auto mem = engine_->OpenTable("db", "mem");
  ASSERT_TRUE(mem.ok());
  EXPECT_TRUE((*mem)->CheckLastValues().ok());

  Status del = engine_->DeleteRows("db", "cpu", std::nullopt, INT64_MIN, INT64_MAX);
  EXPECT_TRUE(del.IsCorruption()) << del.ToString();
  ASSERT_TRUE(engine_->Compact().ok());
  EXPECT_TRUE(std::filesystem::exists(victim));
  EXPECT_EQ(SegmentFiles("cpu").size(), 3u);  // the old partition's healthy file was not merged away
  // The refused delete was not logged: after a restart nothing of it applies anywhere.
  Reopen();
  size_t rows = 0;
  ASSERT_TRUE(ScanRange("mem", INT64_MIN, INT64_MAX, &rows).ok());
  EXPECT_EQ(rows, 4u);
}

TEST_F(DamagedSegmentTest, RetentionAgesOutADamagedFile) {
  const std::string victim = DamageOldCpuSegment();
  retention_ = kNanosPerDay;  // keeps only today's partition
  Reopen();
  ASSERT_TRUE(engine_->ApplyRetention().ok());
  Reopen();
  EXPECT_FALSE(std::filesystem::exists(victim));
  EXPECT_EQ(engine_->Stats().damaged_segments, 0u);
  size_t rows = 0;
  ASSERT_TRUE(ScanRange("cpu", INT64_MIN, INT64_MAX, &rows).ok());
  EXPECT_EQ(rows, 4u);
}

}  // namespace
}  // namespace gnomon::storage
