#include "src/bench/loader.h"

#include <gtest/gtest.h>
#include <libdeflate.h>

#include <atomic>
#include <mutex>
#include <set>

#include "src/bench/fake_http_server.h"
#include "src/base/json_value.h"

namespace gnomon::bench {
namespace {

using testing::FakeHttpServer;
using testing::FakeRequest;
using testing::FakeResponse;

std::string Gunzip(const std::string& in) {
  libdeflate_decompressor* d = libdeflate_alloc_decompressor();
  std::string out(in.size() * 8 + 1024, '\0');
  while (true) {
    size_t n = 0;
    auto r = libdeflate_gzip_decompress(d, in.data(), in.size(), out.data(), out.size(), &n);
    if (r == LIBDEFLATE_INSUFFICIENT_SPACE) {
      out.resize(out.size() * 2);
      continue;
    }
    EXPECT_EQ(r, LIBDEFLATE_SUCCESS);
    out.resize(n);
    break;
  }
  libdeflate_free_decompressor(d);
  return out;
}

// A stand-in for the server's write and /query endpoints that counts what it receives.
struct FakeTsdb {
  std::mutex mu;
  LineCounts received;
  uint64_t requests = 0;
  std::set<std::string> targets;
  std::vector<std::string> databases;
  std::vector<std::string> queries;
  int fail_on_write = 0;  // answer the n-th write with 400

  FakeResponse Handle(const FakeRequest& r) {
    std::lock_guard lock(mu);
    if (r.target.rfind("/query", 0) == 0) {
      queries.push_back(r.method + " " + r.target + " " + r.body);
      if (r.method == "GET") {
        std::string values;
        for (const auto& db : databases) values += (values.empty() ? "" : ",") + ("[\"" + db + "\"]");
        return {200, R"({"results":[{"statement_id":0,"series":[{"name":"databases","columns":["name"])" +
                         (values.empty() ? "" : ",\"values\":[" + values + "]") + "}]}]}"};
      }
      return {200, R"({"results":[{"statement_id":0}]})"};
    }
    ++requests;
    targets.insert(r.target);
    if (fail_on_write > 0 && static_cast<int>(requests) == fail_on_write) {
      return {400, R"({"error":"partial write: field type conflict"})"};
    }
    std::string body = r.headers.count("content-encoding") ? Gunzip(r.body) : r.body;
    received += CountLineProtocol(body);
    return {204, ""};
  }
};

std::string MakeLines(int n) {
  std::string s;
  for (int i = 0; i < n; ++i) {
    s += "cpu,hostname=host_" + std::to_string(i % 7) + " ";
    int fields = 1 + i % 4;
    for (int f = 0; f < fields; ++f) s += (f ? ",f" : "f") + std::to_string(f) + "=" + std::to_string(i) + "i";
    s += " " + std::to_string(1686441600000000000LL + i) + "\n";
  }
  return s;
}

LoadConfig ConfigFor(const FakeHttpServer& server) {
  LoadConfig c;
  c.url = server.url();
  c.workers = 3;
  c.batch_size = 7;
  c.reporting_period_s = 0;
  return c;
}

TEST(LoaderTest, LoadsEveryRowExactlyOnce) {
  FakeTsdb tsdb;
  FakeHttpServer server([&](const FakeRequest& r) { return tsdb.Handle(r); });
  std::string input = MakeLines(1000);
  LineCounts expected = CountLineProtocol(input);
  EXPECT_EQ(expected.rows, 1000u);
  EXPECT_EQ(expected.metrics, 2500u);  // 1+2+3+4 fields per 4 lines

  LoadConfig config = ConfigFor(server);
  auto source = NewStringByteSource(input);
  auto stats = RunLoad(config, source.get());
  ASSERT_TRUE(stats.ok()) << stats.status().ToString();
  EXPECT_EQ(stats->totals.rows, 1000u);
  EXPECT_EQ(stats->totals.metrics, 2500u);
  EXPECT_EQ(stats->batches, 143u);  // ceil(1000 / 7)
  EXPECT_EQ(stats->bytes_read, input.size());
  EXPECT_EQ(tsdb.received.rows, 1000u);
  EXPECT_EQ(tsdb.received.metrics, 2500u);
  EXPECT_EQ(tsdb.requests, 143u);
  EXPECT_EQ(tsdb.targets, (std::set<std::string>{"/write?db=benchmark"}));
  ASSERT_EQ(stats->workers.size(), 3u);
  uint64_t rows = 0, batches = 0;
  for (const WorkerLoadStats& w : stats->workers) {
    rows += w.rows;
    batches += w.batches;
    EXPECT_LE(w.connects, 1u);  // keep-alive: one connection per worker at most
  }
  EXPECT_EQ(rows, 1000u);
  EXPECT_EQ(batches, 143u);
  EXPECT_LE(server.connections(), 4);  // 3 workers + SHOW DATABASES
  ASSERT_FALSE(tsdb.queries.empty());
  EXPECT_EQ(tsdb.queries[0], "GET /query?q=SHOW+DATABASES ");
}

TEST(LoaderTest, GzipBodiesAndOtherEndpoints) {
  FakeTsdb tsdb;
  FakeHttpServer server([&](const FakeRequest& r) { return tsdb.Handle(r); });
  std::string input = MakeLines(500);
  LoadConfig config = ConfigFor(server);
  config.gzip = true;
  config.endpoint = "v3";
  config.no_sync = true;
  config.db = "my db";
  auto source = NewStringByteSource(input);
  auto stats = RunLoad(config, source.get());
  ASSERT_TRUE(stats.ok()) << stats.status().ToString();
  EXPECT_EQ(tsdb.received.rows, 500u);
  EXPECT_EQ(tsdb.received.metrics, stats->totals.metrics);
  EXPECT_EQ(tsdb.targets,
            (std::set<std::string>{"/api/v3/write_lp?db=my+db&precision=nanosecond&no_sync=true"}));
  config.endpoint = "v2";
  config.no_sync = false;
  EXPECT_EQ(WriteTarget(config), "/api/v2/write?bucket=my+db&precision=ns");
}

TEST(LoaderTest, CreatesTheDatabaseOnlyWhenMissingAndAsked) {
  FakeTsdb tsdb;
  FakeHttpServer server([&](const FakeRequest& r) { return tsdb.Handle(r); });
  LoadConfig config = ConfigFor(server);
  config.create_db = true;
  ASSERT_TRUE(PrepareDatabase(config).ok());
  ASSERT_EQ(tsdb.queries.size(), 2u);
  EXPECT_EQ(tsdb.queries[1], "POST /query q=CREATE+DATABASE+%22benchmark%22");
  tsdb.databases = {"other", "benchmark"};
  tsdb.queries.clear();
  ASSERT_TRUE(PrepareDatabase(config).ok());
  EXPECT_EQ(tsdb.queries.size(), 1u);  // exists: no CREATE
}

TEST(LoaderTest, Non2xxAbortsWithStatusAndBody) {
  FakeTsdb tsdb;
  tsdb.fail_on_write = 5;
  FakeHttpServer server([&](const FakeRequest& r) { return tsdb.Handle(r); });
  LoadConfig config = ConfigFor(server);
  auto source = NewStringByteSource(MakeLines(5000));
  auto stats = RunLoad(config, source.get());
  ASSERT_FALSE(stats.ok());
  EXPECT_NE(stats.status().message().find("HTTP 400"), std::string::npos) << stats.status().ToString();
  EXPECT_NE(stats.status().message().find("field type conflict"), std::string::npos);
  EXPECT_LT(tsdb.requests, 5000u / 7);  // stopped early
}

TEST(LoaderTest, ServerDownIsAnError) {
  int port;
  { FakeHttpServer gone([](const FakeRequest&) { return FakeResponse{}; }); port = gone.port(); }
  LoadConfig config;
  config.url = "http://127.0.0.1:" + std::to_string(port);
  config.reporting_period_s = 0;
  auto source = NewStringByteSource(MakeLines(10));
  EXPECT_FALSE(RunLoad(config, source.get()).ok());
  config.check_db = false;
  source = NewStringByteSource(MakeLines(10));
  EXPECT_FALSE(RunLoad(config, source.get()).ok());
}

TEST(LoaderTest, ValidatesConfig) {
  LoadConfig c;
  EXPECT_TRUE(ValidateLoadConfig(c).ok());
  c.workers = 0;
  EXPECT_FALSE(ValidateLoadConfig(c).ok());
  c = LoadConfig();
  c.endpoint = "v4";
  EXPECT_FALSE(ValidateLoadConfig(c).ok());
  c = LoadConfig();
  c.no_sync = true;
  EXPECT_FALSE(ValidateLoadConfig(c).ok());  // v1 has no no_sync
  c.endpoint = "v3";
  EXPECT_TRUE(ValidateLoadConfig(c).ok());
  c.url = "ftp://x";
  EXPECT_FALSE(ValidateLoadConfig(c).ok());
}

TEST(LoaderTest, SummaryAndJsonUseTsbsFigures) {
  LoadStats stats;
  stats.totals = {103680000, 1036800000};
  stats.elapsed_s = 350.9;
  stats.batches = 34560;
  stats.workers.resize(2);
  stats.workers[0] = {51840000, 518400000, 17280, 0, 1, 300.0};
  stats.workers[1] = {51840000, 518400000, 17280, 0, 1, 310.0};
  std::string summary = FormatLoadSummary(stats);
  EXPECT_EQ(summary.substr(0, summary.find("[worker")),
            "\nSummary:\n"
            "loaded 1036800000 metrics in 350.900sec with 2 workers (mean rate 2954687.95 metrics/sec)\n"
            "loaded 103680000 rows in 350.900sec with 2 workers (mean rate 295468.79 rows/sec)\n");
  EXPECT_NE(summary.find("[worker 1] 17280 batches, 51840000 rows"), std::string::npos);
  LoadConfig config;
  auto doc = JsonValue::Parse(LoadStatsToJson(config, stats, "data.lp"));
  ASSERT_TRUE(doc.ok());
  const JsonValue* totals = doc->Find("Totals");
  ASSERT_NE(totals, nullptr);
  EXPECT_EQ(totals->NumberOr("rowCount", 0), 103680000);
  EXPECT_NEAR(totals->NumberOr("rowRate", 0), 295468.79, 0.01);
  EXPECT_EQ(doc->StringOr("ResultFormatVersion", ""), "0.1");
  EXPECT_EQ(doc->Find("RunnerConfig")->StringOr("file", ""), "data.lp");
}

// A plain file is mapped and cut into views (no copies): the same requests as a streamed source.
TEST(LoaderTest, MappedFileLoadsLikeAStream) {
  FakeTsdb tsdb;
  FakeHttpServer server([&](const FakeRequest& r) { return tsdb.Handle(r); });
  std::string input = MakeLines(1000) + "\n# trailing comment";
  std::string path = ::testing::TempDir() + "/loader_mapped_test.lp";
  { FILE* f = std::fopen(path.c_str(), "wb"); std::fwrite(input.data(), 1, input.size(), f); std::fclose(f); }
  auto source = OpenByteSource(path);
  ASSERT_TRUE(source.ok());
  ASSERT_EQ((*source)->Contents(), input);
  LoadConfig config = ConfigFor(server);
  auto stats = RunLoad(config, source->get());
  ASSERT_TRUE(stats.ok()) << stats.status().ToString();
  EXPECT_EQ(stats->totals.rows, 1000u);
  EXPECT_EQ(stats->totals.metrics, 2500u);
  EXPECT_EQ(stats->batches, 143u);
  EXPECT_EQ(stats->bytes_read, input.size());
  EXPECT_EQ(tsdb.received.rows, 1000u);
  EXPECT_EQ(tsdb.received.metrics, 2500u);
  EXPECT_EQ(tsdb.requests, 143u);
  EXPECT_TRUE(NewStringByteSource("x")->Contents().empty());  // streamed sources offer none
}

// Given-back bytes of a mapped file read the same again (from the page cache or the disk).
TEST(LoaderTest, ReleasedContentsStillRead) {
  std::string input = MakeLines(20000);
  std::string path = ::testing::TempDir() + "/loader_release_test.lp";
  { FILE* f = std::fopen(path.c_str(), "wb"); std::fwrite(input.data(), 1, input.size(), f); std::fclose(f); }
  auto source = OpenByteSource(path);
  ASSERT_TRUE(source.ok());
  ASSERT_EQ((*source)->Contents(), input);
  (*source)->Release(input.size() / 2);
  EXPECT_EQ((*source)->Contents(), input);
  (*source)->Release(input.size() + 4096);  // past the end: everything, no error
  EXPECT_EQ((*source)->Contents(), input);
  NewStringByteSource("x")->Release(1);  // sources that hold no mapping ignore it
}

TEST(InputSourceTest, ReadsPlainGzipAndXzFiles) {
  const std::string dir = ::testing::TempDir();
  std::string input = MakeLines(300);
  std::string plain = dir + "/loader_test.lp";
  { FILE* f = std::fopen(plain.c_str(), "wb"); std::fwrite(input.data(), 1, input.size(), f); std::fclose(f); }
  ASSERT_EQ(std::system(("gzip -c " + plain + " > " + plain + ".gz").c_str()), 0);
  bool have_xz = std::system(("xz -c " + plain + " > " + plain + ".xz 2>/dev/null").c_str()) == 0;
  std::vector<std::string> files = {plain, plain + ".gz"};
  if (have_xz) files.push_back(plain + ".xz");
  for (const std::string& file : files) {
    auto source = OpenByteSource(file);
    ASSERT_TRUE(source.ok()) << file;
    std::string got;
    char buf[1000];
    while (true) {
      auto n = (*source)->Read(buf, sizeof(buf));
      ASSERT_TRUE(n.ok());
      if (*n == 0) break;
      got.append(buf, *n);
    }
    EXPECT_TRUE((*source)->Close().ok()) << file;
    EXPECT_EQ(got, input) << file;
  }
  EXPECT_FALSE(OpenByteSource(dir + "/missing.lp").ok());
  EXPECT_FALSE(OpenByteSource(dir + "/missing.lp.xz").ok());
  // A corrupt .xz: the decompressor's failure surfaces at Close.
  std::string bad = dir + "/bad.lp.xz";
  { FILE* f = std::fopen(bad.c_str(), "wb"); std::fputs("not xz at all", f); std::fclose(f); }
  if (have_xz) {
    auto source = OpenByteSource(bad);
    ASSERT_TRUE(source.ok());
    char buf[100];
    while (true) {
      auto n = (*source)->Read(buf, sizeof(buf));
      if (!n.ok() || *n == 0) break;
    }
    EXPECT_FALSE((*source)->Close().ok());
  }
}

}  // namespace
}  // namespace gnomon::bench
