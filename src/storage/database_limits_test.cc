// DatabaseLimits. max_series_per_database: past the limit, rows of new series are refused (each
// named) and every other row is written; existing series keep taking rows; the count survives a
// restart; each database has its own limit. max_tables_per_database and max_columns_per_table:
// a write that would create one more is refused naming it, and nothing of it is written; what
// exists keeps taking rows; a WAL written under a higher limit replays whole.
#include <gtest/gtest.h>

#include "src/port/fault_injection_env.h"
#include "src/port/mem_env.h"
#include "src/storage/engine.h"
#include "src/storage/storage_test_util.h"

namespace gnomon::storage {
namespace {

using testing::AddRow;
using testing::Host;
using testing::TestRow;

class DatabaseLimitsTest : public ::testing::Test {
 protected:
  void Open(uint64_t max_tables = 0, uint64_t max_columns = 0) {
    engine_.reset();
    EngineOptions options;
    options.data_dir = "/data";
    options.env = &faults_;
    options.background_work = false;
    options.max_series_per_database = 3;
    options.max_tables_per_database = max_tables;
    options.max_columns_per_table = max_columns;
    auto e = Engine::Open(options);
    ASSERT_TRUE(e.ok()) << e.status().ToString();
    engine_ = std::move(e).value();
  }

  Result<WriteOutcome> Write(const std::string& db, const std::vector<std::string>& hosts, bool partial = true) {
    WriteBatch batch(db);
    for (size_t i = 0; i < hosts.size(); ++i) AddRow(&batch, "cpu", {Host(hosts[i]), 100 + int64_t(i), {{"v", 1}}});
    WriteOptions options;
    options.accept_partial = partial;
    return engine_->Write(batch, options);
  }

  port::MemEnv env_;
  port::FaultInjectionEnv faults_{&env_};
  std::unique_ptr<Engine> engine_;
};

TEST_F(DatabaseLimitsTest, NewSeriesPastTheLimitAreRefusedAndNamed) {
  Open();
  auto r = Write("db", {"a", "b", "c", "d", "e", "a"});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->rows_written, 4u);  // a, b, c and a's second row
  ASSERT_EQ(r->rejected.size(), 2u);
  EXPECT_NE(r->rejected[0].reason.find("max-series-per-database"), std::string::npos) << r->rejected[0].reason;
  EXPECT_NE(r->rejected[0].reason.find("cpu,hostname=d"), std::string::npos) << r->rejected[0].reason;
  EXPECT_NE(r->rejected[1].reason.find("cpu,hostname=e"), std::string::npos) << r->rejected[1].reason;
  // Existing series keep taking rows; a whole-batch write with a new series is refused.
  r = Write("db", {"b", "c"});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->rows_written, 2u);
  EXPECT_TRUE(r->rejected.empty());
  auto whole = Write("db", {"a", "z"}, /*partial=*/false);
  EXPECT_TRUE(whole.status().code() == Status::Code::kInvalidArgument) << whole.status().ToString();
  // Another database counts its own series.
  r = Write("other", {"x", "y", "z"});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->rows_written, 3u);
}

TEST_F(DatabaseLimitsTest, TheCountSurvivesARestart) {
  Open();
  ASSERT_TRUE(Write("db", {"a", "b"}).ok());
  ASSERT_TRUE(engine_->Close().ok());
  Open();
  auto r = Write("db", {"c", "d"});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->rows_written, 1u);
  ASSERT_EQ(r->rejected.size(), 1u);
  EXPECT_NE(r->rejected[0].reason.find("hostname=d"), std::string::npos);
}

Result<WriteOutcome> WriteTable(Engine* engine, const std::string& table, const TestRow& row, bool partial) {
  WriteBatch batch("db");
  AddRow(&batch, table, row);
  WriteOptions options;
  options.accept_partial = partial;
  return engine->Write(batch, options);
}

// Rows of `table` (which has a field `column`), or -1 when it cannot be read.
int64_t CountRows(Engine* engine, const std::string& table, const std::string& column) {
  auto reader = engine->OpenTable("db", table);
  if (!reader.ok()) return -1;
  testing::CollectingConsumer c;
  if (!(*reader)->Scan(testing::AllSeries(**reader, {column}), &c, nullptr).ok()) return -1;
  return static_cast<int64_t>(c.order.size());
}

TEST_F(DatabaseLimitsTest, TablesPastTheLimitAreRefusedAndNamed) {
  Open(/*max_tables=*/2);
  ASSERT_TRUE(WriteTable(engine_.get(), "cpu", {Host("a"), 1, {{"v", 1}}}, false).ok());
  ASSERT_TRUE(WriteTable(engine_.get(), "mem", {Host("a"), 1, {{"v", 1}}}, false).ok());
  for (bool partial : {false, true}) {
    auto r = WriteTable(engine_.get(), "disk", {Host("a"), 1, {{"v", 1}}}, partial);
    ASSERT_EQ(r.status().code(), Status::Code::kInvalidArgument) << r.status().ToString();
    EXPECT_NE(r.status().message().find("max-tables-per-database"), std::string::npos) << r.status().ToString();
    EXPECT_NE(r.status().message().find("new table disk"), std::string::npos) << r.status().ToString();
  }
  EXPECT_FALSE(engine_->OpenTable("db", "disk").ok());
  // The tables there keep taking rows, and a restart (the WAL replays) keeps the limit.
  ASSERT_TRUE(WriteTable(engine_.get(), "cpu", {Host("a"), 2, {{"v", 1}}}, false).ok());
  ASSERT_TRUE(engine_->Close().ok());
  Open(/*max_tables=*/2);
  EXPECT_EQ(CountRows(engine_.get(), "cpu", "v"), 2);
  EXPECT_FALSE(WriteTable(engine_.get(), "disk", {Host("a"), 1, {{"v", 1}}}, false).ok());
}

TEST_F(DatabaseLimitsTest, ColumnsPastTheLimitAreRefusedAndNamed) {
  Open(/*max_tables=*/0, /*max_columns=*/3);  // hostname + two fields
  ASSERT_TRUE(WriteTable(engine_.get(), "cpu", {Host("a"), 1, {{"u", 1}, {"v", 2}}}, false).ok());
  auto field = WriteTable(engine_.get(), "cpu", {Host("a"), 2, {{"w", 3}}}, false);
  ASSERT_EQ(field.status().code(), Status::Code::kInvalidArgument) << field.status().ToString();
  EXPECT_NE(field.status().message().find("max-columns-per-table"), std::string::npos);
  EXPECT_NE(field.status().message().find("new field w"), std::string::npos) << field.status().ToString();
  // Partial writes refuse the rows that need the new column and keep the others.
  WriteBatch batch("db");
  AddRow(&batch, "cpu", {Host("a"), 3, {{"u", 1}}});
  AddRow(&batch, "cpu", {Host("a"), 4, {{"w", 1}}});
  WriteOptions partial;
  partial.accept_partial = true;
  auto r = engine_->Write(batch, partial);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->rows_written, 1u);
  ASSERT_EQ(r->rejected.size(), 1u);
  EXPECT_NE(r->rejected[0].reason.find("new field w"), std::string::npos) << r->rejected[0].reason;
  // A new tag key is a column too.
  auto tag = WriteTable(engine_.get(), "cpu", {TagSet{Tag{"hostname", "a"}, Tag{"region", "x"}}, 5, {{"u", 1}}}, true);
  ASSERT_EQ(tag.status().code(), Status::Code::kInvalidArgument) << tag.status().ToString();
  EXPECT_NE(tag.status().message().find("new tag region"), std::string::npos) << tag.status().ToString();
  EXPECT_EQ(CountRows(engine_.get(), "cpu", "u"), 2);
}

TEST_F(DatabaseLimitsTest, AWalWrittenUnderAHigherLimitReplaysWhole) {
  Open();
  ASSERT_TRUE(WriteTable(engine_.get(), "cpu", {Host("a"), 1, {{"u", 1}, {"v", 2}, {"w", 3}}}, false).ok());
  ASSERT_TRUE(WriteTable(engine_.get(), "mem", {Host("a"), 1, {{"v", 1}}}, false).ok());
  ASSERT_TRUE(WriteTable(engine_.get(), "disk", {Host("a"), 1, {{"v", 1}}}, false).ok());
  // A crash: the rows are only in the WAL, which replays them under the lower limits.
  faults_.SetFilesystemActive(false);
  engine_.reset();
  ASSERT_TRUE(faults_.SimulateCrash().ok());
  Open(/*max_tables=*/1, /*max_columns=*/2);
  EXPECT_EQ(CountRows(engine_.get(), "cpu", "u"), 1);
  EXPECT_EQ(CountRows(engine_.get(), "disk", "v"), 1);
  EXPECT_FALSE(WriteTable(engine_.get(), "net", {Host("a"), 1, {{"v", 1}}}, false).ok());
  EXPECT_TRUE(WriteTable(engine_.get(), "cpu", {Host("a"), 2, {{"u", 1}}}, false).ok());
}

}  // namespace
}  // namespace gnomon::storage
