#include "src/bench/report.h"

#include <gtest/gtest.h>

#include "src/bench/loader.h"
#include "src/bench/query_runner.h"
#include "src/port/env.h"

namespace gnomon::bench {
namespace {

ReportInput SampleInput() {
  LoadStats load;
  load.totals = {864000, 8640000};
  load.elapsed_s = 2.0;
  load.workers.resize(4);
  LoadConfig lc;
  lc.batch_size = 5000;
  auto load_doc = JsonValue::Parse(LoadStatsToJson(lc, load, "cpu.lp"));
  EXPECT_TRUE(load_doc.ok());

  QueryRunResult run;
  for (double ms : {1.0, 2.0, 3.0, 4.0}) run.groups.Add("Influx max of all CPU metrics", ms);
  run.wall_s = 0.5;
  run.measured = run.received = 4;
  auto q_doc = JsonValue::Parse(QueryRunToJson(QueryRunConfig(), run, "cpu-max-all-1.txt"));
  EXPECT_TRUE(q_doc.ok());

  ReportInput input;
  input.env = CollectEnvironment("0.1.0");
  input.load = *LoadFiguresFromJson(*load_doc);
  input.queries = *QueryFiguresFromJson(*q_doc, "cpu-max-all-1");
  input.storage_bytes = 4320000;
  input.settings = {{"scale", "100"}};
  return input;
}

TEST(ReportTest, ReadsResultFiles) {
  ReportInput input = SampleInput();
  EXPECT_EQ(input.load->rows, 864000u);
  EXPECT_EQ(input.load->metrics, 8640000u);
  EXPECT_DOUBLE_EQ(input.load->row_rate, 432000);
  EXPECT_EQ(input.load->batch_size, 5000u);
  ASSERT_EQ(input.queries.size(), 1u);  // "all queries" left out
  EXPECT_EQ(input.queries[0].name, "cpu-max-all-1");
  EXPECT_DOUBLE_EQ(input.queries[0].latency.mean_ms, 2.5);
  EXPECT_DOUBLE_EQ(input.queries[0].latency.median_ms, 2);
  EXPECT_DOUBLE_EQ(input.queries[0].queries_per_second, 8);
  EXPECT_FALSE(LoadFiguresFromJson(*JsonValue::Parse("{}")).ok());
  EXPECT_FALSE(QueryFiguresFromJson(*JsonValue::Parse("[]"), "x").ok());
}

TEST(ReportTest, MarkdownHasEveryFigure) {
  ReportInput input = SampleInput();
  std::string md = RenderReportMarkdown(input, "latency.svg");
  EXPECT_NE(md.find("| cores | "), std::string::npos);
  EXPECT_NE(md.find("| 864,000 | 8,640,000 | 2.000 s | 432,000 | 4,320,000 |"), std::string::npos) << md;
  EXPECT_NE(md.find("| 4,320,000 | 8,640,000 | 0.500 |"), std::string::npos) << md;  // bytes/metric
  EXPECT_NE(md.find("| cpu-max-all-1 | 4 | 1.00 | 2.00 | 2.50 | 4.00 | 4.00 | 4.00 | 1.12 | 8.00 |"),
            std::string::npos) << md;
  EXPECT_NE(md.find("| scale | 100 |"), std::string::npos);
  EXPECT_NE(md.find("![mean latency per query type](latency.svg)"), std::string::npos);
  auto json = JsonValue::Parse(RenderReportJson(input));
  ASSERT_TRUE(json.ok());
  EXPECT_DOUBLE_EQ(json->Find("storage")->NumberOr("bytesPerMetric", 0), 0.5);
  EXPECT_EQ(json->Find("queries")->array().size(), 1u);
  EXPECT_GT(json->Find("environment")->NumberOr("cores", 0), 0);
}

TEST(ReportTest, ServerFiguresGiveCpuPerRow) {
  ReportInput input = SampleInput();
  EXPECT_EQ(RenderReportMarkdown(input, "latency.svg").find("## Server"), std::string::npos);
  ServerFigures server;
  server.load_cpu_s = 1.728;  // 2 us for each of 864,000 rows
  server.load_peak_rss = 512ull << 20;
  server.peak_rss = 600ull << 20;
  server.stop_s = 0.25;
  server.restart_s = 1.5;
  input.server = server;  // compaction left unmeasured
  std::string md = RenderReportMarkdown(input, "latency.svg");
  EXPECT_NE(md.find("| CPU per row | 2.00 µs |"), std::string::npos) << md;
  EXPECT_NE(md.find("| peak RSS during the load | 512 MB |"), std::string::npos) << md;
  EXPECT_NE(md.find("| flush and compaction | - |"), std::string::npos) << md;
  EXPECT_NE(md.find("| start to serving after the stop | 1.50 s |"), std::string::npos) << md;
  auto json = JsonValue::Parse(RenderReportJson(input));
  ASSERT_TRUE(json.ok());
  const JsonValue* s = json->Find("server");
  ASSERT_NE(s, nullptr);
  EXPECT_DOUBLE_EQ(s->NumberOr("loadCpuSeconds", 0), 1.728);
  EXPECT_DOUBLE_EQ(s->NumberOr("peakRssBytes", 0), 600.0 * 1048576);
  EXPECT_DOUBLE_EQ(s->NumberOr("compactSeconds", -7), -7);  // null: not a number
}

TEST(ReportTest, SvgHasOneBarPerQueryType) {
  std::vector<QueryFigures> q(3);
  q[0].name = "lastpoint";
  q[0].latency.mean_ms = 10;
  q[1].name = "a<b & \"c\"";
  q[1].latency.mean_ms = 5;
  q[2].name = "zero";
  std::string svg = RenderLatencyChartSvg(q);
  EXPECT_EQ(svg.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\"", 0), 0u);
  size_t bars = 0;
  for (size_t pos = 0; (pos = svg.find("fill=\"#4878a8\"", pos)) != std::string::npos; ++pos) ++bars;
  EXPECT_EQ(bars, 3u);
  EXPECT_NE(svg.find("a&lt;b &amp; &quot;c&quot;"), std::string::npos);
  EXPECT_NE(svg.find("width=\"460.0\""), std::string::npos);  // the longest bar fills the area
  EXPECT_NE(svg.find("width=\"230.0\""), std::string::npos);
  EXPECT_EQ(svg.substr(svg.size() - 7), "</svg>\n");
}

TEST(ReportTest, WritesThreeFiles) {
  std::string dir = ::testing::TempDir() + "/report_test_out";
  ASSERT_TRUE(WriteReport(SampleInput(), dir).ok());
  for (const char* f : {"summary.md", "summary.json", "latency.svg"}) {
    EXPECT_TRUE(port::Env::Default()->FileExists(dir + "/" + f)) << f;
  }
}

}  // namespace
}  // namespace gnomon::bench
