// Test helpers for storage: temporary directories, batch building, scan collection.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "src/storage/engine.h"
#include "src/storage/scan.h"
#include "src/storage/write_batch.h"

namespace gnomon::storage::testing {

// A fresh directory under /tmp, removed when the object dies.
class TempDir {
 public:
  TempDir() {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    path_ = std::filesystem::temp_directory_path() /
            ("gnomon_" + std::string(info->test_suite_name()) + "_" + info->name() + "_" +
             std::to_string(::getpid()));
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~TempDir() { std::filesystem::remove_all(path_); }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// An engine on `dir` without background work (flushes and compactions only when a test asks),
// with whatever else `adjust` sets; nullptr, with a test failure, if it does not open.
inline std::unique_ptr<Engine> OpenTestEngine(const std::string& dir,
                                              const std::function<void(EngineOptions*)>& adjust = {}) {
  EngineOptions options;
  options.data_dir = dir;
  options.background_work = false;
  if (adjust) adjust(&options);
  auto e = Engine::Open(options);
  EXPECT_TRUE(e.ok()) << e.status().ToString();
  return e.ok() ? std::move(e).value() : nullptr;
}

// One row for AddRow: tags, time, and int fields (name -> value).
struct TestRow {
  TagSet tags;
  int64_t time;
  std::vector<std::pair<std::string, int64_t>> ints;
  std::vector<std::pair<std::string, double>> floats;
  std::vector<std::pair<std::string, std::string>> strings;
};

inline void AddRow(WriteBatch* batch, const std::string& table, const TestRow& r) {
  TableBatch* t = batch->Table(table);
  uint32_t sid = UINT32_MAX;
  for (uint32_t i = 0; i < t->series().size(); ++i) {
    if (t->series()[i] == r.tags) sid = i;
  }
  if (sid == UINT32_MAX) sid = t->AddSeries(r.tags);
  t->BeginRow(sid, r.time, 1);
  uint32_t f;
  for (const auto& [name, v] : r.ints) {
    ASSERT_TRUE(t->FindOrAddField(name, ValueType::kInt64, &f));
    t->AddInt(f, v);
  }
  for (const auto& [name, v] : r.floats) {
    ASSERT_TRUE(t->FindOrAddField(name, ValueType::kFloat64, &f));
    t->AddFloat(f, v);
  }
  for (const auto& [name, v] : r.strings) {
    ASSERT_TRUE(t->FindOrAddField(name, ValueType::kString, &f));
    t->AddString(f, v);
  }
}

// The segment files (*.seg) on disk anywhere under `dir`, as paths (not through the engine).
inline std::set<std::string> SegmentFilesUnder(const std::string& dir) {
  std::set<std::string> files;
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir)) {
    if (e.is_regular_file() && e.path().extension() == ".seg") files.insert(e.path().string());
  }
  return files;
}

inline TagSet Host(const std::string& host) { return TagSet{Tag{"hostname", host}}; }

// Collects scanned rows: per series, time -> column values as strings ("NULL" for null).
class CollectingConsumer : public ScanConsumer {
 public:
  bool OnBatch(const ColumnBatch& batch) override {
    for (size_t r = 0; r < batch.rows; ++r) {
      std::vector<std::string> row;
      for (const ColumnVector& c : batch.columns) {
        if (!c.IsValid(r)) {
          row.push_back("NULL");
          continue;
        }
        switch (c.type) {
          case ValueType::kInt64: row.push_back(std::to_string(c.i64[r])); break;
          case ValueType::kFloat64: row.push_back(std::to_string(c.f64[r])); break;
          case ValueType::kUInt64: row.push_back(std::to_string(c.u64[r])); break;
          case ValueType::kBool: row.push_back(c.b[r] ? "true" : "false"); break;
          case ValueType::kString: row.push_back(std::string(c.str[r])); break;
          default: row.push_back("?");
        }
      }
      order.emplace_back(batch.series, batch.times[r]);
      rows[batch.series][batch.times[r]] = row;
    }
    return limit_rows == 0 || order.size() < limit_rows;
  }
  bool CanUseStats(int64_t, int64_t) override { return accept_stats; }
  bool OnBlockStats(const BlockStatsView& stats) override {
    if (!accept_stats) return false;
    stats_blocks.push_back(stats);
    return true;
  }

  std::map<SeriesId, std::map<int64_t, std::vector<std::string>>> rows;
  std::vector<std::pair<SeriesId, int64_t>> order;
  std::vector<BlockStatsView> stats_blocks;
  bool accept_stats = false;
  size_t limit_rows = 0;
};

inline ScanSpec AllSeries(const TableReader& reader, std::vector<std::string> columns) {
  ScanSpec spec;
  for (SeriesId id = 0; id < reader.SeriesCount(); ++id) spec.series.push_back(id);
  spec.columns = std::move(columns);
  return spec;
}

}  // namespace gnomon::storage::testing
