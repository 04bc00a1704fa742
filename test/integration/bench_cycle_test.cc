// The built-in benchmark end to end against the real `gnomon server`: data from the bench
// generator, loaded by the bench loader, every devops query type the data supports generated,
// written in the query-file format, read back and run by the bench query runner; the loader's and
// the runner's reported counts are checked against the data and against what the server holds,
// before and after a clean restart (issue 4).
#include <gtest/gtest.h>

#include <signal.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "src/bench/data_generator.h"
#include "src/bench/input_source.h"
#include "src/bench/line_batcher.h"
#include "src/bench/loader.h"
#include "src/bench/query_file.h"
#include "src/bench/query_generator.h"
#include "src/bench/query_runner.h"
#include "src/port/env.h"
#include "test/integration/server_process.h"
#include "test/integration/sql_query.h"

namespace gnomon::test {
namespace {

const std::string kBinary = std::string(GNOMON_BINARY_DIR) + "/gnomon";
const std::string kDb = "benchmark";
constexpr int64_t kSecond = 1'000'000'000;
constexpr int64_t kStart = 1686441600 * kSecond;   // 2023-06-11T00:00:00Z
constexpr int64_t kEnd = kStart + 13 * 3600 * kSecond;  // 13 h: every 12-hour window fits
constexpr uint64_t kHosts = 8;
constexpr uint64_t kQueriesPerType = 3;
constexpr uint64_t kCpuFields = 10;  // usage_user .. usage_guest_nice

// The single integer of a one-row, one-column answer; -1 (and a failure) otherwise.
int64_t ScalarCount(uint16_t port, const std::string& sql) {
  auto result = RunSql(port, kDb, sql);
  EXPECT_TRUE(result.ok()) << result.status().ToString();
  if (!result.ok()) return -1;
  EXPECT_EQ(result->rows.size(), 1u) << sql;
  if (result->rows.size() != 1 || result->rows[0].size() != 1 || !result->rows[0][0].is_number()) {
    ADD_FAILURE() << sql << ": not a single number";
    return -1;
  }
  return static_cast<int64_t>(result->rows[0][0].number());
}

// The generated line protocol, written to `path` and returned.
Result<std::string> GenerateCpuOnly(const std::string& path) {
  bench::DataGenConfig c;
  c.use_case = "cpu-only";
  c.scale = kHosts;
  c.seed = 123;
  c.start_ns = kStart;
  c.end_ns = kEnd;
  {
    GNOMON_ASSIGN_OR_RETURN(auto out, port::Env::Default()->NewWritableFile(path));
    GNOMON_RETURN_IF_ERROR(bench::GenerateData(c, out.get()).status());
    GNOMON_RETURN_IF_ERROR(out->Close());
  }
  GNOMON_ASSIGN_OR_RETURN(auto source, bench::OpenByteSource(path));
  std::string data;
  char buf[1 << 16];
  for (;;) {
    GNOMON_ASSIGN_OR_RETURN(size_t n, source->Read(buf, sizeof(buf)));
    if (n == 0) break;
    data.append(buf, n);
  }
  GNOMON_RETURN_IF_ERROR(source->Close());
  return data;
}

TEST(BenchCycleTest, LoaderAndQueryRunnerAgreeWithTheLiveServer) {
  const std::string dir = MakeTempDir("gnomon-bench-cycle");
  ASSERT_FALSE(dir.empty());
  const std::string data_dir = dir + "/data";
  const std::string data_path = dir + "/cpu-only.influx";
  const std::string query_path = dir + "/queries.txt";

  // 1. Data: 8 hosts x 13 h x 360 points/h.
  auto data = GenerateCpuOnly(data_path);
  ASSERT_TRUE(data.ok()) << data.status().ToString();
  const bench::LineCounts expected = bench::CountLineProtocol(*data);
  ASSERT_EQ(expected.rows, kHosts * 13 * 360);
  ASSERT_EQ(expected.metrics, expected.rows * kCpuFields);

  auto server = std::make_unique<ServerProcess>(kBinary, data_dir);
  ASSERT_TRUE(server->Start().ok()) << "see " << server->log_path();
  const std::string url = "http://127.0.0.1:" + std::to_string(server->port());

  // 2. Load through the file, as `gnomon bench load --file` does.
  bench::LoadConfig load;
  load.url = url;
  load.db = kDb;
  load.workers = 2;
  load.batch_size = 1000;
  load.create_db = true;
  load.reporting_period_s = 0;
  auto source = bench::OpenByteSource(data_path);
  ASSERT_TRUE(source.ok()) << source.status().ToString();
  auto loaded = bench::RunLoad(load, source->get());
  ASSERT_TRUE(loaded.ok()) << loaded.status().ToString() << " (server log " << server->log_path()
                           << ")";
  EXPECT_EQ(loaded->totals.rows, expected.rows);
  EXPECT_EQ(loaded->totals.metrics, expected.metrics);
  EXPECT_EQ(loaded->batches, (expected.rows + 999) / 1000);
  EXPECT_EQ(loaded->bytes_read, data->size());
  uint64_t worker_rows = 0;
  for (const auto& w : loaded->workers) worker_rows += w.rows;
  EXPECT_EQ(worker_rows, expected.rows);

  EXPECT_EQ(ScalarCount(server->port(), "SELECT count(*) FROM cpu"),
            static_cast<int64_t>(loaded->totals.rows));
  EXPECT_EQ(ScalarCount(server->port(), "SELECT count(usage_user) FROM cpu") *
                static_cast<int64_t>(kCpuFields),
            static_cast<int64_t>(loaded->totals.metrics));
  EXPECT_EQ(ScalarCount(server->port(), "SELECT count(DISTINCT hostname) FROM cpu"),
            static_cast<int64_t>(kHosts));

  // 3. Every devops query type 8 hosts support, through a query file.
  std::vector<bench::GeneratedQuery> generated;
  for (const std::string& type : bench::DevopsQueryTypes()) {
    if (type == "cpu-max-all-32-24") continue;  // needs 32 hosts
    bench::QueryGenConfig q;
    q.query_type = type;
    q.scale = kHosts;
    q.seed = 123;
    q.start_ns = kStart;
    q.end_ns = kEnd;
    q.queries = kQueriesPerType;
    auto got = bench::GenerateQueries(q);
    ASSERT_TRUE(got.ok()) << type << ": " << got.status().ToString();
    ASSERT_EQ(got->size(), kQueriesPerType) << type;
    generated.insert(generated.end(), got->begin(), got->end());
  }
  ASSERT_EQ(generated.size(), 15 * kQueriesPerType);
  {
    auto out = port::Env::Default()->NewWritableFile(query_path);
    ASSERT_TRUE(out.ok()) << out.status().ToString();
    ASSERT_TRUE((*out)->Append(bench::FormatQueries(generated)).ok());
    ASSERT_TRUE((*out)->Close().ok());
  }
  auto queries = bench::ReadQueryFile(query_path);
  ASSERT_TRUE(queries.ok()) << queries.status().ToString();
  ASSERT_EQ(queries->size(), generated.size());
  std::map<std::string, uint64_t> per_label;
  for (size_t i = 0; i < generated.size(); ++i) {
    EXPECT_EQ((*queries)[i].label, generated[i].label);
    ++per_label[generated[i].label];
  }

  bench::QueryRunConfig run;
  run.url = url;
  run.db = kDb;
  run.workers = 1;
  run.print_interval = 0;
  // A non-2xx answer aborts the run with the query's number, label and the server's body.
  auto ran = bench::RunQueries(run, *queries);
  ASSERT_TRUE(ran.ok()) << ran.status().ToString() << " (server log " << server->log_path() << ")";
  EXPECT_EQ(ran->received, generated.size());
  EXPECT_EQ(ran->measured, generated.size());
  EXPECT_GT(ran->response_bytes, 0u);
  std::map<std::string, uint64_t> ran_per_label;
  for (const auto& [label, stats] : ran->groups.groups()) {
    if (label == bench::StatGroups::kAllQueries) {
      EXPECT_EQ(stats.count(), generated.size());
    } else {
      ran_per_label[label] = stats.count();
    }
  }
  EXPECT_EQ(ran_per_label, per_label);

  // 4. A clean restart on the same data directory keeps every loaded row.
  auto code = server->Stop(SIGTERM);
  ASSERT_TRUE(code.ok()) << code.status().ToString();
  EXPECT_EQ(*code, 0) << "see " << server->log_path();
  server = std::make_unique<ServerProcess>(kBinary, data_dir);
  ASSERT_TRUE(server->Start().ok()) << "see " << server->log_path();
  EXPECT_EQ(ScalarCount(server->port(), "SELECT count(*) FROM cpu"),
            static_cast<int64_t>(expected.rows));
  EXPECT_EQ(ScalarCount(server->port(), "SELECT count(usage_user) FROM cpu") *
                static_cast<int64_t>(kCpuFields),
            static_cast<int64_t>(expected.metrics));
  code = server->Stop(SIGTERM);
  ASSERT_TRUE(code.ok()) << code.status().ToString();
  EXPECT_EQ(*code, 0);
  if (!HasFailure()) RemoveTree(dir);
}

}  // namespace
}  // namespace gnomon::test
