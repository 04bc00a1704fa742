#include <gtest/gtest.h>
#include <sstream>
#include <gmock/gmock.h>

#include "src/server/api/api_test_util.h"

namespace gnomon::server::api {
namespace {

using ::testing::HasSubstr;

TEST(MetricsHandlerTest, ExposesCountersInPrometheusFormat) {
  ApiFixture f;
  ASSERT_EQ(f.Post("/write?db=d", "cpu v=1 1\ncpu v=2 2\n").status, 204);
  ASSERT_EQ(f.Post("/write?db=d", "cpu v= 1\n").status, 400);
  f.http_stats.RecordRequest("write_v1", 204, 100, 200, 0);
  f.http_stats.RecordRequest("write_v1", 204, 100, 200, 0);
  f.http_stats.RecordRequest("ping", 204, 0, 0, 0);
  auto r = f.Get("/metrics");
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.content_type, "text/plain; version=0.0.4; charset=utf-8");
  EXPECT_THAT(r.body, HasSubstr("# TYPE gnomon_http_requests_total counter\n"));
  EXPECT_THAT(r.body, HasSubstr("gnomon_http_requests_total{endpoint=\"write_v1\",status=\"204\"} 2\n"));
  EXPECT_THAT(r.body, HasSubstr("gnomon_http_requests_total{endpoint=\"ping\",status=\"204\"} 1\n"));
  EXPECT_THAT(r.body, HasSubstr("gnomon_http_request_body_bytes_total 200\n"));
  EXPECT_THAT(r.body, HasSubstr("gnomon_http_request_body_decoded_bytes_total 400\n"));
  EXPECT_THAT(r.body, HasSubstr("gnomon_rows_written_total 2\n"));
  EXPECT_THAT(r.body, HasSubstr("gnomon_lines_rejected_total 1\n"));
  EXPECT_THAT(r.body, HasSubstr("gnomon_write_requests_total 2\n"));
  EXPECT_THAT(r.body, HasSubstr("gnomon_write_errors_total 1\n"));
  EXPECT_THAT(r.body, HasSubstr("gnomon_engine_rows_written_total 2\n"));
  // Every sample line is "name{labels} value" or "name value"; every metric has HELP and TYPE.
  std::istringstream lines(r.body);
  std::string line;
  while (std::getline(lines, line)) {
    if (line.rfind("# ", 0) == 0) continue;
    EXPECT_THAT(line, ::testing::MatchesRegex(R"(gnomon_[a-z_]+(\{[^}]*\})? [0-9]+)")) << line;
  }
}

}  // namespace
}  // namespace gnomon::server::api
