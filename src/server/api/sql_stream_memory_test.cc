// Server memory for a large SELECT: the process's peak RSS (VmHWM, reset through
// /proc/self/clear_refs) while /v1/sql answers a ~100 MB result, streamed (the endpoint's default
// limits) and fully buffered (limits that never stream: how /v1/sql answered before streaming).
// The client discards the bytes as they arrive, so the figures are the server's.
#include <gtest/gtest.h>
#include <malloc.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>

#include "src/query/query_engine.h"
#include "src/server/api/sql_endpoint.h"
#include "src/server/http/http_server.h"
#include "src/server/http/http_test_client.h"
#include "src/storage/engine.h"
#include "src/storage/storage_test_util.h"

namespace gnomon::server::api {
namespace {

constexpr int64_t kT0 = 1686441600000000000LL;  // 2023-06-11T00:00:00Z
constexpr int64_t kSec = 1000000000LL;
constexpr int kHosts = 100;
constexpr int kTimes = 10000;  // 1M rows

// kB of "VmHWM:" or "VmRSS:" in /proc/self/status.
int64_t StatusKb(const std::string& field) {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(field, 0) == 0) return std::stoll(line.substr(field.size()));
  }
  return -1;
}

// Resets the peak to the current RSS; false when the kernel does not allow it.
bool ResetPeak() {
  malloc_trim(0);
  std::ofstream out("/proc/self/clear_refs");
  out << "5";
  out.flush();
  return out.good();
}

class SqlStreamMemoryTest : public ::testing::Test {
 protected:
  void SetUp() override {
    storage::EngineOptions options;
    options.data_dir = dir_.path();
    options.background_work = false;
    options.wal_sync = storage::WalSyncMode::kNone;
    auto e = storage::Engine::Open(options);
    ASSERT_TRUE(e.ok()) << e.status().ToString();
    engine_ = std::move(e).value();
    for (int t0 = 0; t0 < kTimes; t0 += 1000) {
      storage::WriteBatch batch("db");
      storage::TableBatch* table = batch.Table("cpu");
      std::vector<uint32_t> series;
      for (int h = 0; h < kHosts; ++h) {
        series.push_back(table->AddSeries(storage::TagSet{
            {"datacenter", h % 2 ? "us-east-1a" : "eu-west-1b"},  // tags sorted by key
            {"hostname", "host_" + std::to_string(h)},
            {"rack", std::to_string(h % 97)},
            {"region", h % 2 ? "us-east-1" : "eu-west-1"}}));
      }
      for (int t = t0; t < t0 + 1000; ++t) {
        for (int h = 0; h < kHosts; ++h) {
          table->BeginRow(series[h], kT0 + t * 10 * kSec, 1);
          uint32_t f;
          for (const char* name : {"usage_user", "usage_system", "usage_idle", "usage_nice"}) {
            ASSERT_TRUE(table->FindOrAddField(name, ValueType::kInt64, &f));
            table->AddInt(f, (t * 7 + h * 3 + name[6]) % 100);
          }
          ASSERT_TRUE(table->FindOrAddField("usage_steal", ValueType::kFloat64, &f));
          table->AddFloat(f, t * 0.25);
        }
      }
      auto written = engine_->Write(batch, {});
      ASSERT_TRUE(written.ok()) << written.status().ToString();
    }
    ASSERT_TRUE(engine_->Flush().ok());
    query_ = query::QueryEngine::Create(engine_.get(), {});
    router_.Add(http::Method::kGet, "/v1/sql", "sql", MakeSqlHandler(query_.get()));
    ResultStreamLimits never_stream;
    never_stream.buffer_bytes = std::numeric_limits<size_t>::max();
    router_.Add(http::Method::kGet, "/v1/sql-buffered", "sql_buffered",
                MakeSqlHandler(query_.get(), never_stream));
    http::ServerOptions server_options;
    server_options.port = 0;
    server_options.io_threads = 1;
    server_options.worker_threads = 2;
    server_ = std::make_unique<http::HttpServer>(server_options, &router_, &stats_);
    ASSERT_TRUE(server_->Start().ok());
  }
  void TearDown() override {
    if (server_) server_->Shutdown(std::chrono::seconds(10));
  }

  struct Run {
    uint64_t bytes = 0;   // response bytes, head included
    int64_t rss_kb = 0;   // RSS when the peak was reset
    int64_t peak_kb = 0;  // VmHWM after the answer
    std::string head;     // the response head
  };
  Run Select(const std::string& path) {
    Run run;
    auto client = http::TestHttpClient::Connect("127.0.0.1", server_->port());
    EXPECT_TRUE(client.ok());
    if (!client.ok()) return run;
    EXPECT_TRUE(ResetPeak());
    run.rss_kb = StatusKb("VmRSS:");
    EXPECT_TRUE((*client)
                    ->WriteRaw("GET " + path +
                               "?db=db&sql=SELECT%20*%20FROM%20cpu HTTP/1.1\r\n"
                               "Host: x\r\nConnection: close\r\n\r\n")
                    .ok());
    auto n = (*client)->DiscardUntilClosed();
    EXPECT_TRUE(n.ok()) << n.status().ToString();
    run.bytes = n.ok() ? *n : 0;
    run.peak_kb = StatusKb("VmHWM:");
    return run;
  }

  storage::testing::TempDir dir_;
  std::unique_ptr<storage::Engine> engine_;
  std::unique_ptr<query::QueryEngine> query_;
  http::Router router_;
  http::HttpStats stats_;
  std::unique_ptr<http::HttpServer> server_;
};

TEST_F(SqlStreamMemoryTest, StreamingKeepsPeakMemoryFlat) {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  // AddressSanitizer keeps freed memory in quarantine (256 MB by default) and ThreadSanitizer
  // holds shadow memory and delayed frees: resident memory then grows with everything allocated,
  // streamed or not, and says nothing about the server's.
  GTEST_SKIP() << "peak RSS is not the server's under a sanitizer";
#endif
  Run streamed = Select("/v1/sql");
  Run buffered = Select("/v1/sql-buffered");
  int64_t streamed_kb = streamed.peak_kb - streamed.rss_kb;
  int64_t buffered_kb = buffered.peak_kb - buffered.rss_kb;
  std::printf(
      "SELECT * FROM cpu, %d rows, %.1f MB answer: peak RSS growth %.1f MB streamed "
      "(VmHWM %.1f MB), %.1f MB buffered (VmHWM %.1f MB)\n",
      kHosts * kTimes, streamed.bytes / 1e6, streamed_kb / 1024.0, streamed.peak_kb / 1024.0,
      buffered_kb / 1024.0, buffered.peak_kb / 1024.0);
  RecordProperty("streamed_peak_growth_kb", std::to_string(streamed_kb));
  RecordProperty("buffered_peak_growth_kb", std::to_string(buffered_kb));
  ASSERT_GT(streamed.bytes, 64u << 20);
  EXPECT_NEAR(static_cast<double>(streamed.bytes), static_cast<double>(buffered.bytes), 4096.0);
  // Buffered, the answer sits whole in memory: the harness must see that...
  EXPECT_GT(buffered_kb * 1024, static_cast<int64_t>(streamed.bytes) * 9 / 10);
  // ...and streamed, memory must not grow with the answer: a few MiB of buffers and chunks.
  EXPECT_LT(streamed_kb, 32 << 10) << "streamed peak grew by " << streamed_kb << " kB";
}

}  // namespace
}  // namespace gnomon::server::api
