#include <gtest/gtest.h>

#include "src/server/api/api_test_util.h"
#include "src/server/api/influxql_retention.h"

namespace gnomon::server::api {
namespace {

using http::Method;

TEST(QueryHandlerTest, ShowDatabasesAlwaysHasASeries) {
  ApiFixture f;
  auto r = f.Get("/query?q=show%20databases");
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.content_type, "application/json");
  EXPECT_EQ(r.body,
            R"({"results":[{"statement_id":0,"series":[{"name":"databases","columns":["name"]}]}]})");
}

TEST(QueryHandlerTest, TsbsDatabaseLifecycle) {
  ApiFixture f;
  // tsbs_load_influx: GET /query?consistency=all&q=CREATE+DATABASE+benchmark+WITH+REPLICATION+1
  auto create = f.Get("/query?consistency=all&q=CREATE+DATABASE+benchmark+WITH+REPLICATION+1");
  EXPECT_EQ(create.status, 200);
  EXPECT_EQ(create.body, R"({"results":[{"statement_id":0}]})");
  EXPECT_TRUE(f.engine.DatabaseExists("benchmark"));
  auto list = f.Get("/query?q=show%20databases");
  EXPECT_EQ(list.body,
            R"({"results":[{"statement_id":0,"series":[{"name":"databases","columns":["name"],)"
            R"("values":[["benchmark"]]}]}]})");
  // POST /query?q=drop+database+benchmark with an empty text/plain body.
  auto drop = f.Post("/query?q=drop+database+benchmark", "");
  EXPECT_EQ(drop.status, 200);
  EXPECT_EQ(drop.body, R"({"results":[{"statement_id":0}]})");
  EXPECT_FALSE(f.engine.DatabaseExists("benchmark"));
  // Dropping again and creating twice both succeed, as in InfluxDB.
  EXPECT_EQ(f.Post("/query?q=drop+database+benchmark", "").body, R"({"results":[{"statement_id":0}]})");
  f.Get("/query?q=CREATE+DATABASE+x");
  EXPECT_EQ(f.Get("/query?q=CREATE+DATABASE+x").body, R"({"results":[{"statement_id":0}]})");
}

TEST(QueryHandlerTest, CreateWithDurationSetsRetention) {
  ApiFixture f;
  f.Get("/query?q=CREATE%20DATABASE%20r%20WITH%20DURATION%2030d");
  EXPECT_EQ(f.engine.retention("r"), 30ll * 24 * 3600 * 1000000000);
}

TEST(QueryHandlerTest, SeveralStatementsGetTheirOwnResults) {
  ApiFixture f;
  auto r = f.Get("/query?q=CREATE+DATABASE+a%3BCREATE+DATABASE+b%3BSHOW+DATABASES%3BDROP+RETENTION+POLICY+rp+ON+a&db=a");
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.body,
            R"({"results":[{"statement_id":0},{"statement_id":1},{"statement_id":2,"series":)"
            R"([{"name":"databases","columns":["name"],"values":[["a"],["b"]]}]},)"
            R"({"statement_id":3}]})");
}

// As in InfluxDB 1.x: once a statement fails, the ones after it do not run.
TEST(QueryHandlerTest, StatementsAfterAFailedOneAreNotExecuted) {
  ApiFixture f;
  auto r = f.Get("/query?q=SHOW+MEASUREMENTS+ON+nosuch%3BCREATE+DATABASE+later");
  EXPECT_EQ(r.body, R"({"results":[{"statement_id":0,"error":"database not found: nosuch"},)"
                    R"({"statement_id":1,"error":"not executed"}]})");
  EXPECT_FALSE(f.engine.DatabaseExists("later"));
}

TEST(QueryHandlerTest, RetentionPoliciesMapOntoTheDatabasesRetention) {
  ApiFixture f;
  ASSERT_EQ(f.Get("/query?q=CREATE+DATABASE+r").status, 200);
  const std::string show = "/query?q=SHOW+RETENTION+POLICIES+ON+r";
  EXPECT_EQ(f.Get(show).body,
            R"({"results":[{"statement_id":0,"series":[{"columns":["name","duration","shardGroupDuration","replicaN",)"
            R"("default"],"values":[["autogen","0s","168h0m0s",1,true]]}]}]})");
  EXPECT_EQ(f.Get("/query?q=ALTER+RETENTION+POLICY+autogen+ON+r+DURATION+30d+REPLICATION+1+DEFAULT").body,
            R"({"results":[{"statement_id":0}]})");
  EXPECT_EQ(f.engine.retention("r"), 30ll * 24 * 3600 * 1000000000);
  EXPECT_NE(f.Get(show).body.find(R"(["autogen","720h0m0s","24h0m0s",1,true])"), std::string::npos);
  // Creating the policy that exists succeeds only with its own settings, as in InfluxDB.
  EXPECT_EQ(f.Get("/query?q=CREATE+RETENTION+POLICY+autogen+ON+r+DURATION+30d+REPLICATION+1").body,
            R"({"results":[{"statement_id":0}]})");
  EXPECT_EQ(f.Get("/query?q=CREATE+RETENTION+POLICY+autogen+ON+r+DURATION+2d+REPLICATION+1").body,
            R"({"results":[{"statement_id":0,"error":"retention policy already exists"}]})");
  auto other = f.Get("/query?q=CREATE+RETENTION+POLICY+week+ON+r+DURATION+7d+REPLICATION+1+DEFAULT");
  EXPECT_NE(other.body.find("a database has one retention policy here"), std::string::npos) << other.body;
  EXPECT_EQ(f.Get("/query?q=ALTER+RETENTION+POLICY+week+ON+r+DURATION+7d").body,
            R"({"results":[{"statement_id":0,"error":"retention policy not found: week"}]})");
  EXPECT_EQ(f.Get("/query?q=ALTER+RETENTION+POLICY+autogen+ON+r+DURATION+30m").body,
            R"({"results":[{"statement_id":0,"error":"retention policy duration must be at least 1h0m0s"}]})");
  EXPECT_NE(f.Get("/query?q=ALTER+RETENTION+POLICY+autogen+ON+r+REPLICATION+3").body.find("one copy"),
            std::string::npos);
  EXPECT_NE(f.Get("/query?q=DROP+RETENTION+POLICY+autogen+ON+r").body.find("cannot be dropped"), std::string::npos);
  EXPECT_EQ(f.engine.retention("r"), 30ll * 24 * 3600 * 1000000000);  // none of the refusals changed it
  EXPECT_EQ(f.Get("/query?q=ALTER+RETENTION+POLICY+autogen+ON+r+DURATION+INF").body, R"({"results":[{"statement_id":0}]})");
  EXPECT_EQ(f.engine.retention("r"), 0);
  EXPECT_EQ(f.Get("/query?q=ALTER+RETENTION+POLICY+autogen+ON+nosuch+DURATION+1d").body,
            R"({"results":[{"statement_id":0,"error":"database not found: nosuch"}]})");
}

TEST(QueryHandlerTest, GoDurations) {
  EXPECT_EQ(GoDurationString(0), "0s");
  EXPECT_EQ(GoDurationString(3'600'000'000'000), "1h0m0s");
  EXPECT_EQ(GoDurationString(90'000'000'000), "1m30s");
  EXPECT_EQ(GoDurationString(1'500'000'000), "1.5s");
  EXPECT_EQ(GoDurationString(500'000'000), "500ms");
  EXPECT_EQ(GoDurationString(1'500'000), "1.5ms");
  EXPECT_EQ(GoDurationString(42), "42ns");
  EXPECT_EQ(GoDurationString(-90'000'000'000), "-1m30s");
}

TEST(QueryHandlerTest, FormBody) {
  ApiFixture f;
  auto r = f.Call(Method::kPost, "/query", "q=CREATE+DATABASE+formdb&db=ignored",
                  {{"Content-Type", "application/x-www-form-urlencoded"}});
  EXPECT_EQ(r.status, 200);
  EXPECT_TRUE(f.engine.DatabaseExists("formdb"));
}

TEST(QueryHandlerTest, ErrorsMirrorInfluxdb) {
  ApiFixture f;
  auto missing = f.Get("/query");
  EXPECT_EQ(missing.status, 400);
  EXPECT_EQ(missing.body, R"({"error":"missing required parameter \"q\""})");
  auto parse = f.Get("/query?q=CREATE+DATABASE");
  EXPECT_EQ(parse.status, 400);
  EXPECT_EQ(parse.body,
            R"({"error":"error parsing query: found EOF, expected identifier at line 1, char 16"})");
  // A parse error anywhere runs nothing.
  auto none = f.Get("/query?q=CREATE+DATABASE+z%3BBOGUS");
  EXPECT_EQ(none.status, 400);
  EXPECT_FALSE(f.engine.DatabaseExists("z"));
  auto bad_name = f.Get("/query?q=CREATE+DATABASE+%22a%2Fb%22");
  EXPECT_EQ(bad_name.status, 200);
  EXPECT_NE(bad_name.body.find("\"error\":\"invalid database name 'a/b'"), std::string::npos);
}

TEST(QueryHandlerTest, ReadsAgainstUnknownDatabasesNameIt) {
  ApiFixture f;
  auto r = f.Get("/query?db=nosuch&q=SELECT+*+FROM+cpu");
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.body, R"({"results":[{"statement_id":0,"error":"database not found: nosuch"}]})");
  auto m = f.Get("/query?q=SHOW+MEASUREMENTS+ON+nosuch");
  EXPECT_EQ(m.body, R"({"results":[{"statement_id":0,"error":"database not found: nosuch"}]})");
  auto nodb = f.Get("/query?q=SHOW+MEASUREMENTS");
  EXPECT_EQ(nodb.body, R"({"results":[{"statement_id":0,"error":"database name required"}]})");
}

TEST(QueryHandlerTest, ShowMeasurementsListsTables) {
  ApiFixture f;
  ASSERT_EQ(f.Post("/write?db=m", "mem,host=a free=1i 1\ncpu,host=a usage=1 1\n").status, 204);
  auto r = f.Get("/query?db=m&q=SHOW+MEASUREMENTS");
  EXPECT_EQ(r.body,
            R"({"results":[{"statement_id":0,"series":[{"name":"measurements","columns":["name"],)"
            R"("values":[["cpu"],["mem"]]}]}]})");
}

}  // namespace
}  // namespace gnomon::server::api
