#include "src/bench/query_runner.h"

#include <gtest/gtest.h>

#include <mutex>
#include <set>

#include "src/bench/fake_http_server.h"
#include "src/base/json_value.h"
#include "src/bench/url.h"

namespace gnomon::bench {
namespace {

using testing::FakeHttpServer;
using testing::FakeRequest;
using testing::FakeResponse;

struct FakeSql {
  std::mutex mu;
  std::vector<std::string> sql;
  std::vector<std::string> targets;
  int fail_on = 0;
  FakeResponse Handle(const FakeRequest& r) {
    std::lock_guard lock(mu);
    targets.push_back(r.method + " " + r.target + " " + r.headers.at("content-type"));
    EXPECT_EQ(r.body.rfind("sql=", 0), 0u);
    sql.push_back(*FormUrlDecode(r.body.substr(4)));
    if (fail_on > 0 && static_cast<int>(sql.size()) == fail_on) {
      return {400, R"({"error":"unknown column 'usage_user'"})"};
    }
    return {200, R"({"columns":["a"],"rows":[[1]]})"};
  }
};

std::vector<QueryRecord> RealQueries(const std::string& type) {
  auto q = ReadQueryFile(std::string(GNOMON_TESTDATA_DIR) + "/tsbs/queries/greptime/" + type + ".txt");
  EXPECT_TRUE(q.ok());
  return *q;
}

TEST(QueryRunnerTest, InfluxqlGoesToQueryAsQ) {
  std::mutex mu;
  std::vector<std::string> targets, texts;
  FakeHttpServer server([&](const FakeRequest& r) -> FakeResponse {
    std::lock_guard lock(mu);
    targets.push_back(r.method + " " + r.target);
    EXPECT_EQ(r.body.rfind("q=", 0), 0u);
    texts.push_back(*FormUrlDecode(r.body.substr(2)));
    return {200, R"({"results":[{"statement_id":0}]})"};
  });
  std::vector<QueryRecord> queries = {{1, "l", "", {}, "SELECT max(usage_user) FROM cpu WHERE hostname = 'host_1'", 1}};
  QueryRunConfig config;
  config.url = server.url();
  config.language = QueryLanguage::kInfluxql;
  auto result = RunQueries(config, queries);
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  ASSERT_EQ(targets.size(), 1u);
  EXPECT_EQ(targets[0], "POST /query?db=benchmark");
  EXPECT_EQ(texts[0], queries[0].text);
}

TEST(QueryRunnerTest, SendsEveryQueryAsFormEncodedSql) {
  FakeSql fake;
  FakeHttpServer server([&](const FakeRequest& r) { return fake.Handle(r); });
  std::vector<QueryRecord> queries = RealQueries("cpu-max-all-8");
  QueryRunConfig config;
  config.url = server.url();
  config.db = "benchmark";
  auto result = RunQueries(config, queries);
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  ASSERT_EQ(fake.sql.size(), 20u);
  for (size_t i = 0; i < 20; ++i) EXPECT_EQ(fake.sql[i], queries[i].text);  // 1 worker: in order
  EXPECT_EQ(fake.targets[0], "POST /v1/sql?db=benchmark application/x-www-form-urlencoded");
  EXPECT_EQ(result->measured, 20u);
  EXPECT_EQ(result->received, 20u);
  ASSERT_EQ(result->groups.groups().size(), 2u);
  EXPECT_EQ(result->groups.groups().at(queries[0].label).count(), 20u);
  EXPECT_EQ(result->groups.groups().at("all queries").count(), 20u);
  EXPECT_EQ(server.connections(), 1);  // one kept-alive connection
  std::string summary = FormatRunSummary(config, *result);
  EXPECT_EQ(summary.rfind("Run complete after 20 queries with 1 workers (Overall query rate ", 0), 0u);
  EXPECT_NE(summary.find(queries[0].label + ":\nmin: "), std::string::npos);
  EXPECT_NE(summary.find("count: 20\nwall clock time: "), std::string::npos);
  EXPECT_NE(summary.find("p90: "), std::string::npos);
}

TEST(QueryRunnerTest, BurnInMaxQueriesAndWorkers) {
  FakeSql fake;
  FakeHttpServer server([&](const FakeRequest& r) { return fake.Handle(r); });
  std::vector<QueryRecord> queries = RealQueries("lastpoint");
  std::vector<QueryRecord> more = RealQueries("high-cpu-all");
  queries.insert(queries.end(), more.begin(), more.end());
  QueryRunConfig config;
  config.url = server.url();
  config.workers = 4;
  config.burn_in = 5;
  config.max_queries = 30;
  auto result = RunQueries(config, queries);
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  EXPECT_EQ(fake.sql.size(), 30u);
  EXPECT_EQ(result->received, 30u);
  EXPECT_EQ(result->measured, 25u);
  EXPECT_EQ(result->groups.groups().at("all queries").count(), 25u);
  EXPECT_EQ(result->groups.groups().size(), 3u);  // two labels + all queries
  EXPECT_LE(server.connections(), 4);

  auto doc = JsonValue::Parse(QueryRunToJson(config, *result, "q.txt"));
  ASSERT_TRUE(doc.ok());
  const JsonValue* groups = doc->Find("Groups");
  ASSERT_NE(groups, nullptr);
  EXPECT_EQ(groups->array().size(), 3u);
  const JsonValue* rates = doc->Find("Totals")->Find("overallQueryRates");
  ASSERT_NE(rates, nullptr);
  EXPECT_NE(rates->Find("all_queries"), nullptr);
  EXPECT_NE(doc->Find("Totals")->Find("overallQuantiles")->Find("all_queries")->Find("q50"), nullptr);

  config.burn_in = 31;
  EXPECT_FALSE(RunQueries(config, queries).ok());  // burn-in larger than limit
}

TEST(QueryRunnerTest, ManyWorkersSendEveryQueryOnce) {
  FakeSql fake;
  FakeHttpServer server([&](const FakeRequest& r) { return fake.Handle(r); });
  std::vector<QueryRecord> queries = RealQueries("lastpoint");
  for (const char* type : {"high-cpu-all", "double-groupby-1", "single-groupby-1-1-1"}) {
    std::vector<QueryRecord> more = RealQueries(type);
    queries.insert(queries.end(), more.begin(), more.end());
  }
  QueryRunConfig config;
  config.url = server.url();
  config.workers = 50;  // more connections than queries per type, spread over the event loops
  auto result = RunQueries(config, queries);
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  EXPECT_EQ(result->measured, queries.size());
  std::multiset<std::string> sent(fake.sql.begin(), fake.sql.end()), expected;
  for (const QueryRecord& q : queries) expected.insert(q.text);
  EXPECT_EQ(sent, expected);
  EXPECT_EQ(server.connections(), 50);

  // A failure ends the run with its query's error (how many others were already under way
  // when it arrived is up to the scheduler: Non2xxAbortsTheRun checks the count with one worker).
  fake.sql.clear();
  fake.fail_on = 30;
  auto failed = RunQueries(config, queries);
  ASSERT_FALSE(failed.ok());
  EXPECT_NE(failed.status().message().find("HTTP 400"), std::string::npos) << failed.status().ToString();
  EXPECT_NE(failed.status().message().find("unknown column"), std::string::npos);
}

TEST(QueryRunnerTest, Non2xxAbortsTheRun) {
  FakeSql fake;
  fake.fail_on = 3;
  FakeHttpServer server([&](const FakeRequest& r) { return fake.Handle(r); });
  QueryRunConfig config;
  config.url = server.url();
  auto result = RunQueries(config, RealQueries("high-cpu-1"));
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.status().message().find("query 3 ("), std::string::npos) << result.status().ToString();
  EXPECT_NE(result.status().message().find("HTTP 400"), std::string::npos);
  EXPECT_NE(result.status().message().find("unknown column"), std::string::npos);
  EXPECT_EQ(fake.sql.size(), 3u);
}

TEST(QueryRunnerTest, PrintsResponsesAndIntervals) {
  FakeSql fake;
  FakeHttpServer server([&](const FakeRequest& r) { return fake.Handle(r); });
  char* responses = nullptr;
  size_t responses_len = 0;
  char* intervals = nullptr;
  size_t intervals_len = 0;
  FILE* r = open_memstream(&responses, &responses_len);
  FILE* i = open_memstream(&intervals, &intervals_len);
  QueryRunConfig config;
  config.url = server.url();
  config.responses_out = r;
  config.interval_out = i;
  config.print_interval = 7;
  config.burn_in = 2;
  config.max_queries = 16;
  auto result = RunQueries(config, RealQueries("double-groupby-1"));
  std::fclose(r);
  std::fclose(i);
  std::string resp(responses, responses_len), inter(intervals, intervals_len);
  free(responses);
  free(intervals);
  ASSERT_TRUE(result.ok());
  EXPECT_NE(resp.find("-- query 1: "), std::string::npos);
  EXPECT_NE(resp.find("{\"columns\":[\"a\"]"), std::string::npos);
  EXPECT_NE(inter.find("burn-in complete after 2 queries with 1 workers\n"), std::string::npos);
  EXPECT_NE(inter.find("After 7 queries with 1 workers:\nInterval query rate: "), std::string::npos);
  EXPECT_NE(inter.find("After 14 queries"), std::string::npos);
}

}  // namespace
}  // namespace gnomon::bench
