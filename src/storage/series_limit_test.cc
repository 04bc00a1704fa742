// max_series_per_database: past the limit, rows of new series are refused (each named) and every
// other row is written; existing series keep taking rows; the count survives a restart; each
// database has its own limit.
#include <gtest/gtest.h>

#include "src/port/mem_env.h"
#include "src/storage/engine.h"
#include "src/storage/storage_test_util.h"

namespace gnomon::storage {
namespace {

using testing::AddRow;
using testing::Host;

class SeriesLimitTest : public ::testing::Test {
 protected:
  void Open() {
    engine_.reset();
    EngineOptions options;
    options.data_dir = "/data";
    options.env = &env_;
    options.background_work = false;
    options.max_series_per_database = 3;
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
  std::unique_ptr<Engine> engine_;
};

TEST_F(SeriesLimitTest, NewSeriesPastTheLimitAreRefusedAndNamed) {
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

TEST_F(SeriesLimitTest, TheCountSurvivesARestart) {
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

}  // namespace
}  // namespace gnomon::storage
