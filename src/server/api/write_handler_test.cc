#include <gtest/gtest.h>
#include <gmock/gmock.h>

#include "src/server/api/api_test_util.h"

namespace gnomon::server::api {
namespace {

using http::Method;
using ::testing::HasSubstr;

constexpr int64_t kT = 1451606400;  // 2016-01-01T00:00:00Z in seconds

TEST(WriteV1Test, WritesAndAnswers204) {
  ApiFixture f;
  auto r = f.Post("/write?consistency=all&db=benchmark",
                  "cpu,hostname=host_0 usage_user=58i,usage_system=2.5 1451606400000000000\n"
                  "cpu,hostname=host_1 usage_user=1i,usage_system=3 1451606400000000000\n");
  EXPECT_EQ(r.status, 204);
  EXPECT_TRUE(r.body.empty());
  auto calls = f.engine.calls();
  ASSERT_EQ(calls.size(), 1u);
  EXPECT_EQ(calls[0].database, "benchmark");
  EXPECT_EQ(calls[0].rows, 2u);
  EXPECT_TRUE(calls[0].sync);
  EXPECT_FALSE(calls[0].accept_partial);
  EXPECT_EQ(f.ctx.stats.rows_written.load(), 2u);
  EXPECT_TRUE(f.engine.DatabaseExists("benchmark"));  // created on first write
}

TEST(WriteV1Test, DatabaseIsRequired) {
  ApiFixture f;
  auto r = f.Post("/write", "cpu v=1 1\n");
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(r.body, R"({"error":"database is required"})");
  EXPECT_EQ(f.Post("/write?db=", "cpu v=1 1\n").status, 400);
  auto bad = f.Post("/write?db=..%2Fetc", "cpu v=1 1\n");
  EXPECT_EQ(bad.status, 400);
  EXPECT_THAT(bad.body, HasSubstr("invalid database name"));
  EXPECT_TRUE(f.engine.calls().empty());
}

TEST(WriteV1Test, PrecisionScalesTimestamps) {
  struct Case {
    std::string precision;
    int64_t raw;
    int64_t nanos;
  } cases[] = {
      {"", kT * 1000000000, kT * 1000000000},   {"n", kT * 1000000000, kT * 1000000000},
      {"ns", kT * 1000000000, kT * 1000000000}, {"u", kT * 1000000, kT * 1000000000},
      {"us", kT * 1000000, kT * 1000000000},    {"%C2%B5s", kT * 1000000, kT * 1000000000},
      {"ms", kT * 1000, kT * 1000000000},       {"s", kT, kT * 1000000000},
      {"m", kT / 60, kT / 60 * 60 * 1000000000}, {"h", kT / 3600, kT / 3600 * 3600 * 1000000000},
  };
  for (const auto& c : cases) {
    ApiFixture f;
    auto r = f.Post("/write?db=d&precision=" + c.precision, "cpu v=1 " + std::to_string(c.raw));
    ASSERT_EQ(r.status, 204) << c.precision << ": " << r.body;
    auto calls = f.engine.calls();
    ASSERT_EQ(calls.size(), 1u);
    EXPECT_EQ(calls[0].times.at(0), c.nanos) << c.precision;
  }
  ApiFixture f;
  auto bad = f.Post("/write?db=d&precision=fortnight", "cpu v=1 1");
  EXPECT_EQ(bad.status, 400);
  EXPECT_THAT(bad.body, HasSubstr("fortnight"));
}

TEST(WriteV1Test, LinesWithoutTimestampGetTheReceiveTime) {
  ApiFixture f;
  ASSERT_EQ(f.Post("/write?db=d&precision=s", "cpu v=1\ncpu v=2\n").status, 204);
  auto calls = f.engine.calls();
  ASSERT_EQ(calls.size(), 1u);
  EXPECT_EQ(calls[0].times, (std::vector<int64_t>{f.receive_time_ns, f.receive_time_ns}));
}

TEST(WriteV1Test, BadLineRejectsTheWholeRequest) {
  ApiFixture f;
  auto r = f.Post("/write?db=d", "cpu v=1 1\ncpu v=2 2\ncpu,host=a v=oops 3\ncpu v=4 4\n");
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(r.content_type, "application/json");
  EXPECT_THAT(r.body, HasSubstr(R"("error":"unable to parse 'cpu,host=a v=oops 3': )"));
  EXPECT_THAT(r.body, HasSubstr(R"("line":3,"column":)"));
  EXPECT_THAT(r.body, HasSubstr(R"("text":"cpu,host=a v=oops 3","reason":")"));
  EXPECT_THAT(r.body, HasSubstr(R"("rejected":1,"errors":[{"line":3,)"));
  EXPECT_THAT(r.body, HasSubstr("nothing written"));
  EXPECT_TRUE(f.engine.calls().empty());
  EXPECT_EQ(f.ctx.stats.lines_rejected.load(), 1u);
}

TEST(WriteV1Test, EmptyBodyIs204AndWritesNothing) {
  ApiFixture f;
  EXPECT_EQ(f.Post("/write?db=d", "").status, 204);
  EXPECT_EQ(f.Post("/write?db=d", "\n# comment only\n\n").status, 204);
  EXPECT_TRUE(f.engine.calls().empty());
}

TEST(WriteV1Test, EngineTypeConflictIs400) {
  ApiFixture f;
  ASSERT_EQ(f.Post("/write?db=d", "cpu v=1.5 1").status, 204);
  auto r = f.Post("/write?db=d", "cpu v=2i 2");
  EXPECT_EQ(r.status, 400);
  EXPECT_THAT(r.body, HasSubstr(R"({"error":"field type conflict: invalid column type for column 'v')"));
}

TEST(WriteV1Test, EngineFailuresMapToStatuses) {
  ApiFixture f;
  f.engine.FailNextWrite(Status::IOError("disk on fire"));
  auto io = f.Post("/write?db=d", "cpu v=1 1");
  EXPECT_EQ(io.status, 503);  // the engine heals a failed WAL by itself: worth a retry
  EXPECT_EQ(io.body, R"({"error":"disk on fire"})");
  ASSERT_EQ(io.headers.size(), 1u);
  EXPECT_EQ(io.headers[0].first, "Retry-After");

  f.engine.FailNextWrite(Status::NoSpace("wal/00000002.wal: No space left on device"));
  auto no_space = f.Post("/write?db=d", "cpu v=1 1");
  EXPECT_EQ(no_space.status, 507);
  EXPECT_THAT(no_space.body, HasSubstr("No space left on device"));

  f.engine.FailNextWrite(Status::ResourceExhausted("memtable budget full"));
  auto full = f.Post("/write?db=d", "cpu v=1 1");
  EXPECT_EQ(full.status, 500);
  // The phrase tsbs_load_influx recognises as back-pressure (it sleeps and retries).
  EXPECT_THAT(full.body, HasSubstr("engine: cache maximum memory size exceeded"));
  ASSERT_EQ(full.headers.size(), 1u);
  EXPECT_EQ(full.headers[0].first, "Retry-After");

  f.engine.FailNextWrite(Status::Aborted("shutting down"));
  EXPECT_EQ(f.Post("/write?db=d", "cpu v=1 1").status, 503);
  EXPECT_EQ(f.ctx.stats.write_errors.load(), 4u);
}

TEST(WriteV2Test, BucketIsTheDatabase) {
  ApiFixture f;
  auto r = f.Post("/api/v2/write?org=o&bucket=b2&precision=ms", "m,t=1 f=1i " + std::to_string(kT * 1000));
  EXPECT_EQ(r.status, 204);
  auto calls = f.engine.calls();
  ASSERT_EQ(calls.size(), 1u);
  EXPECT_EQ(calls[0].database, "b2");
  EXPECT_EQ(calls[0].times[0], kT * 1000000000);
}

TEST(WriteV2Test, ErrorsUseCodeAndMessage) {
  ApiFixture f;
  EXPECT_EQ(f.Post("/api/v2/write?org=o", "m f=1").body,
            R"({"code":"invalid","message":"bucket is required"})");
  auto minutes = f.Post("/api/v2/write?bucket=b&precision=m", "m f=1 1");
  EXPECT_EQ(minutes.status, 400);
  EXPECT_THAT(minutes.body, HasSubstr(R"({"code":"invalid","message":)"));
  auto bad = f.Post("/api/v2/write?bucket=b", "m f=1 1\nm f= 2\n");
  EXPECT_EQ(bad.status, 400);
  EXPECT_THAT(bad.body, HasSubstr(R"({"code":"invalid","message":"unable to parse 'm f= 2': )"));
  EXPECT_THAT(bad.body, HasSubstr(R"("line":2,)"));
  EXPECT_TRUE(f.engine.calls().empty());
}

TEST(WriteV3Test, AutoPrecisionJudgesMagnitude) {
  for (int64_t raw : {kT, kT * 1000, kT * 1000000, kT * 1000000000}) {
    ApiFixture f;
    ASSERT_EQ(f.Post("/api/v3/write_lp?db=d", "m f=1 " + std::to_string(raw)).status, 204);
    EXPECT_EQ(f.engine.calls().at(0).times.at(0), kT * 1000000000) << raw;
  }
  ApiFixture f;
  ASSERT_EQ(f.Post("/api/v3/write_lp?db=d&precision=second", "m f=1 20").status, 204);
  EXPECT_EQ(f.engine.calls().at(0).times.at(0), 20ll * 1000000000);
  ASSERT_EQ(f.Post("/api/v3/write_lp?db=d&precision=ms", "m f=1 20").status, 204);
  EXPECT_EQ(f.engine.calls().at(1).times.at(0), 20ll * 1000000);
  auto bad = f.Post("/api/v3/write_lp?db=d&precision=fortnight", "m f=1 20");
  EXPECT_EQ(bad.status, 400);
  EXPECT_THAT(bad.body, HasSubstr("invalid precision 'fortnight'"));
}

TEST(WriteV3Test, AcceptPartialByDefault) {
  ApiFixture f;
  auto r = f.Post("/api/v3/write_lp?db=d", "cpu,host=b val=2 155\ncpu,host=a val= 123\ncpu,host=b val=5 199");
  EXPECT_EQ(r.status, 400);
  EXPECT_THAT(r.body, HasSubstr(R"({"error":"partial write of line protocol occurred","data":[)"
                                R"({"original_line":"cpu,host=a val= 123","line_number":2,"error_message":")"));
  auto calls = f.engine.calls();
  ASSERT_EQ(calls.size(), 1u);
  EXPECT_EQ(calls[0].rows, 2u);  // the good lines were written
  EXPECT_TRUE(calls[0].accept_partial);
}

TEST(WriteV3Test, AcceptPartialFalseWritesNothing) {
  ApiFixture f;
  auto r = f.Post("/api/v3/write_lp?db=d&accept_partial=false",
                  "cpu,host=b val=2 155\ncpu,host=a val= 123\n");
  EXPECT_EQ(r.status, 400);
  EXPECT_THAT(r.body, HasSubstr(R"({"error":"parsing failed for write_lp endpoint","data":)"
                                R"({"original_line":"cpu,host=a val= 123","line_number":2,)"));
  EXPECT_TRUE(f.engine.calls().empty());
}

TEST(WriteV3Test, EngineRejectedRowsAreListedWithTheirLines) {
  ApiFixture f;
  ASSERT_EQ(f.Post("/api/v3/write_lp?db=d", "home,room=Sunroom temp=96 1735545600").status, 204);
  auto r = f.Post("/api/v3/write_lp?db=d",
                  "other,room=Sunroom temp=97 1735549000\nhome,room=Sunroom temp=\"hi\" 1735549200");
  EXPECT_EQ(r.status, 400);
  EXPECT_THAT(r.body, HasSubstr(R"({"original_line":"home,room=Sunroom temp=\"hi\" 1735549200",)"
                                R"("line_number":2,"error_message":"invalid column type for column 'temp')"));
  EXPECT_EQ(f.engine.calls().back().rows, 1u);
  EXPECT_EQ(f.ctx.stats.rows_written.load(), 2u);
}

TEST(WriteV3Test, NoSyncAndBooleans) {
  ApiFixture f;
  ASSERT_EQ(f.Post("/api/v3/write_lp?db=d&no_sync=true", "m f=1 1").status, 204);
  EXPECT_FALSE(f.engine.calls().back().sync);
  ASSERT_EQ(f.Post("/api/v3/write_lp?db=d&no_sync=False&accept_partial=0", "m f=1 1").status, 204);
  EXPECT_TRUE(f.engine.calls().back().sync);
  EXPECT_FALSE(f.engine.calls().back().accept_partial);
  auto bad = f.Post("/api/v3/write_lp?db=d&no_sync=maybe", "m f=1 1");
  EXPECT_EQ(bad.status, 400);
  EXPECT_EQ(bad.body, R"({"error":"invalid no_sync value 'maybe': expected true or false"})");
  EXPECT_EQ(f.Post("/api/v3/write_lp", "m f=1 1").body, R"({"error":"database is required"})");
}

TEST(PingHealthTest, PingIs204WithVersionHeaders) {
  ApiFixture f;
  for (Method m : {Method::kGet, Method::kHead}) {
    auto r = f.Call(m, "/ping");
    EXPECT_EQ(r.status, 204);
    EXPECT_TRUE(r.body.empty());
    bool version = false, build = false;
    for (const auto& [k, v] : r.headers) {
      version |= k == "X-Influxdb-Version" && v == f.ctx.influx_version;
      build |= k == "X-Influxdb-Build" && v == "OSS";
    }
    EXPECT_TRUE(version && build);
  }
  auto verbose = f.Get("/ping?verbose=true");
  EXPECT_EQ(verbose.status, 200);
  EXPECT_EQ(verbose.body, R"({"version":"1.8.10"})");
}

TEST(PingHealthTest, HealthPasses) {
  ApiFixture f;
  auto r = f.Get("/health");
  EXPECT_EQ(r.status, 200);
  EXPECT_THAT(r.body, HasSubstr(R"("status":"pass")"));
  EXPECT_EQ(r.content_type, "application/json");
}

TEST(SqlHookTest, NotImplementedUntilTheSqlLayerSetsIt) {
  ApiFixture f;
  auto r = f.Post("/v1/sql", "SELECT 1");
  EXPECT_EQ(r.status, 501);
  f.ctx.sql_handler = [](const http::Request& req, const query::AccessCheck&, http::Response* resp) {
    resp->SetText(200, "text/plain", "sql:" + std::string(req.body));
  };
  auto hooked = f.Post("/v1/sql", "SELECT 1");
  EXPECT_EQ(hooked.status, 200);
  EXPECT_EQ(hooked.body, "sql:SELECT 1");
}

}  // namespace
}  // namespace gnomon::server::api
