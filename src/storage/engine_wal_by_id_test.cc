// WAL records that name series by id: what a crash leaves is replayed into the right series of the
// right table instance, series resolved ahead of a write land where their tags say, and a batch
// resolved against a table that has since been dropped is refused, not misfiled.
//
// A crash is simulated by copying the data directory of an open engine after its writes returned
// (every write is synced): the copy holds the WAL and the registries as a killed process leaves
// them, and opening it replays the WAL.
#include <gtest/gtest.h>

#include <filesystem>

#include "src/storage/engine.h"
#include "src/storage/storage_test_util.h"
#include "src/storage/write_batch_codec.h"

namespace gnomon::storage {
namespace {

using testing::AddRow;
using testing::AllSeries;
using testing::CollectingConsumer;
using testing::Host;
using testing::OpenTestEngine;
using testing::TempDir;

// The directory as a process killed now would leave it.
void CopyAsCrashed(const std::string& from, const std::string& to) {
  std::filesystem::remove_all(to);
  std::filesystem::copy(from, to, std::filesystem::copy_options::recursive);
}

CollectingConsumer ScanAll(Engine* engine, const std::string& table) {
  CollectingConsumer c;
  auto reader = engine->OpenTable("db", table);
  EXPECT_TRUE(reader.ok()) << reader.status().ToString();
  if (!reader.ok()) return c;
  Status s = (*reader)->Scan(AllSeries(**reader, {"u"}), &c, nullptr);
  EXPECT_TRUE(s.ok()) << s.ToString();
  return c;
}

// A batch of one row per host in `table`, field u = value, each series named by the id the
// engine's resolver gives it (hosts must exist already).
WriteBatch ResolvedBatch(Engine* engine, const std::string& table, int hosts, int64_t time,
                         int64_t value) {
  WriteBatch batch("db");
  TableBatch* t = batch.Table(table);
  auto resolver = engine->NewSeriesResolver("db", table);
  EXPECT_NE(resolver, nullptr);
  if (resolver == nullptr) return batch;
  t->set_table_instance(resolver->table_instance());
  uint32_t u = 0;
  EXPECT_TRUE(t->FindOrAddField("u", ValueType::kInt64, &u));
  for (int h = 0; h < hosts; ++h) {
    std::string name = "h" + std::to_string(h);
    index::TagRef tag{"hostname", name};
    auto id = resolver->Find(index::HashSeriesKey({&tag, 1}), {&tag, 1});
    EXPECT_TRUE(id.has_value()) << name;
    if (!id) continue;
    t->BeginRow(t->AddResolvedSeries(*id), time, 1);
    t->AddInt(u, value + h);
  }
  return batch;
}

void WriteHosts(Engine* engine, const std::string& table, int hosts, int64_t time, int64_t value) {
  WriteBatch batch("db");
  for (int h = 0; h < hosts; ++h) {
    AddRow(&batch, table, {Host("h" + std::to_string(h)), time, {{"u", value + h}}});
  }
  auto r = engine->Write(batch, {});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
}

TEST(EngineWalByIdTest, ResolvedAndNewSeriesReplayAfterACrash) {
  TempDir dir;
  const std::string crashed = dir.path() + "-crashed";
  {
    auto engine = OpenTestEngine(dir.path());
    ASSERT_NE(engine, nullptr);
    EXPECT_EQ(engine->NewSeriesResolver("db", "cpu"), nullptr);  // no such table yet
    WriteHosts(engine.get(), "cpu", 3, 10, 100);
    auto r = engine->Write(ResolvedBatch(engine.get(), "cpu", 3, 20, 200), {});
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    WriteHosts(engine.get(), "cpu", 5, 30, 300);  // two new hosts beside three known ones
    CopyAsCrashed(dir.path(), crashed);
  }
  auto engine = OpenTestEngine(crashed);
  ASSERT_NE(engine, nullptr);
  CollectingConsumer c = ScanAll(engine.get(), "cpu");
  ASSERT_EQ(c.rows.size(), 5u);
  for (int h = 0; h < 3; ++h) {
    EXPECT_EQ(c.rows[h][10], std::vector<std::string>{std::to_string(100 + h)});
    EXPECT_EQ(c.rows[h][20], std::vector<std::string>{std::to_string(200 + h)});
    EXPECT_EQ(c.rows[h][30], std::vector<std::string>{std::to_string(300 + h)});
  }
  EXPECT_EQ(c.rows[4].size(), 1u);
  auto info = engine->DescribeTable("db", "cpu");
  ASSERT_TRUE(info.ok());
  EXPECT_EQ(info->columns[1].name, "hostname");  // the tag key, learnt from the registry
  std::filesystem::remove_all(crashed);
}

TEST(EngineWalByIdTest, ReplayKeepsRowsOfADroppedTableOutOfItsSuccessor) {
  TempDir dir;
  const std::string crashed = dir.path() + "-crashed";
  {
    auto engine = OpenTestEngine(dir.path());
    ASSERT_NE(engine, nullptr);
    WriteHosts(engine.get(), "cpu", 4, 10, 100);
    ASSERT_TRUE(engine->DropTable("db", "cpu").ok());
    WriteHosts(engine.get(), "cpu", 2, 20, 200);  // a new instance: its ids restart at 0
    CopyAsCrashed(dir.path(), crashed);
  }
  auto engine = OpenTestEngine(crashed);
  ASSERT_NE(engine, nullptr);
  CollectingConsumer c = ScanAll(engine.get(), "cpu");
  ASSERT_EQ(c.rows.size(), 2u);
  for (int h = 0; h < 2; ++h) {
    EXPECT_EQ(c.rows[h].size(), 1u);
    EXPECT_EQ(c.rows[h][20], std::vector<std::string>{std::to_string(200 + h)});
  }
  std::filesystem::remove_all(crashed);
}

TEST(EngineWalByIdTest, ABatchResolvedAgainstADroppedTableIsRefused) {
  TempDir dir;
  auto engine = OpenTestEngine(dir.path());
  ASSERT_NE(engine, nullptr);
  WriteHosts(engine.get(), "cpu", 2, 10, 100);
  WriteBatch stale = ResolvedBatch(engine.get(), "cpu", 2, 20, 200);
  ASSERT_TRUE(engine->DropTable("db", "cpu").ok());
  WriteHosts(engine.get(), "cpu", 1, 30, 300);
  auto r = engine->Write(stale, {});
  EXPECT_EQ(r.status().code(), Status::Code::kAborted) << r.status().ToString();
  CollectingConsumer c = ScanAll(engine.get(), "cpu");
  ASSERT_EQ(c.rows.size(), 1u);
  EXPECT_EQ(c.rows[0].size(), 1u);
}

TEST(EngineWalByIdTest, AnIdTheRegistryDoesNotHaveIsCorruption) {
  TempDir dir;
  auto engine = OpenTestEngine(dir.path());
  ASSERT_NE(engine, nullptr);
  WriteHosts(engine.get(), "cpu", 2, 10, 100);
  WriteBatch batch("db");
  TableBatch* t = batch.Table("cpu");
  t->set_table_instance(engine->NewSeriesResolver("db", "cpu")->table_instance());
  uint32_t u = 0;
  ASSERT_TRUE(t->FindOrAddField("u", ValueType::kInt64, &u));
  t->BeginRow(t->AddResolvedSeries(7), 20, 1);
  t->AddInt(u, 1);
  auto r = engine->Write(batch, {});
  EXPECT_TRUE(r.status().IsCorruption()) << r.status().ToString();
  EXPECT_NE(r.status().message().find("series id 7"), std::string::npos);
}

}  // namespace
}  // namespace gnomon::storage
