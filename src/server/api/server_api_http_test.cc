// The API over real sockets: an HttpServer on 127.0.0.1:0 with every route bound to a FakeEngine.
#include <gtest/gtest.h>
#include <gmock/gmock.h>

#include <future>
#include <thread>

#include "src/server/api/api_test_util.h"
#include "src/server/http/http_server.h"
#include "src/server/http/http_test_client.h"

namespace gnomon::server::api {
namespace {

using http::TestHttpClient;
using ::testing::HasSubstr;

class ServerApiHttpTest : public ::testing::Test {
 protected:
  void SetUp() override {
    http::ServerOptions options;
    options.port = 0;
    options.io_threads = 2;
    options.worker_threads = 8;
    options.max_body_bytes = 4 << 20;
    options.default_headers = DefaultResponseHeaders(f_.ctx);
    server_ = std::make_unique<http::HttpServer>(options, &f_.router, &f_.http_stats);
    ASSERT_TRUE(server_->Start().ok());
  }
  void TearDown() override {
    f_.engine.OpenGate();
    server_->Shutdown(std::chrono::seconds(10));
  }
  std::unique_ptr<TestHttpClient> Connect() {
    auto c = TestHttpClient::Connect("127.0.0.1", server_->port());
    EXPECT_TRUE(c.ok());
    return std::move(*c);
  }

  // `hosts` lines of TSBS cpu-only shape for one timestamp.
  static std::string CpuBatch(int hosts, int64_t t) {
    std::string s;
    for (int h = 0; h < hosts; ++h) {
      s += "cpu,hostname=host_" + std::to_string(h) +
           ",region=eu-west-1,datacenter=eu-west-1a,rack=87 usage_user=58i,usage_system=2i,"
           "usage_idle=24i,usage_nice=61i,usage_iowait=22i,usage_irq=63i,usage_softirq=6i,"
           "usage_steal=44i,usage_guest=80i,usage_guest_nice=38i " +
           std::to_string(t) + "\n";
    }
    return s;
  }

  ApiFixture f_;
  std::unique_ptr<http::HttpServer> server_;
};

TEST_F(ServerApiHttpTest, TsbsLoaderConversation) {
  auto client = Connect();
  auto ping = client->Send("HEAD", "/ping");
  ASSERT_TRUE(ping.ok());
  EXPECT_EQ(ping->status, 204);
  EXPECT_EQ(ping->Header("x-influxdb-version"), "1.8.10");
  auto list = client->Send("GET", "/query?q=show%20databases");
  ASSERT_TRUE(list.ok());
  EXPECT_EQ(list->status, 200);
  ASSERT_TRUE(client->Send("POST", "/query?q=drop+database+benchmark", "", {{"Content-Type", "text/plain"}}).ok());
  auto create = client->Send("GET", "/query?consistency=all&q=CREATE+DATABASE+benchmark+WITH+REPLICATION+1");
  ASSERT_TRUE(create.ok());
  EXPECT_EQ(create->status, 200);
  for (int batch = 0; batch < 10; ++batch) {
    auto reply = client->Send("POST", "/write?consistency=all&db=benchmark",
                              http::GzipCompress(CpuBatch(1000, 1451606400000000000 + batch * 10000000000ll)),
                              {{"Content-Type", "text/plain"}, {"Content-Encoding", "gzip"}});
    ASSERT_TRUE(reply.ok());
    ASSERT_EQ(reply->status, 204) << reply->body;
    EXPECT_TRUE(reply->keep_alive);
    EXPECT_EQ(reply->Header("content-length"), "");  // 204 carries no body
  }
  EXPECT_EQ(f_.engine.rows_total(), 10000u);
  EXPECT_EQ(f_.http_stats.Read().connections_total, 1u);
}

TEST_F(ServerApiHttpTest, AdminFlushAndCompactRunAndReport) {
  auto client = Connect();
  auto flush = client->Send("POST", "/v1/admin/flush", "");
  ASSERT_TRUE(flush.ok());
  EXPECT_EQ(flush->status, 200) << flush->body;
  EXPECT_THAT(flush->body, HasSubstr("\"operation\":\"flush\""));
  auto compact = client->Send("POST", "/v1/admin/compact", "");
  ASSERT_TRUE(compact.ok());
  EXPECT_EQ(compact->status, 200) << compact->body;
  EXPECT_THAT(compact->body, HasSubstr("\"segment_files\":"));
  EXPECT_EQ(f_.engine.flushes(), 1);
  EXPECT_EQ(f_.engine.compactions(), 1);

  f_.engine.FailMaintenance(Status::IOError("disk gone"));
  auto failed = client->Send("POST", "/v1/admin/compact", "");
  ASSERT_TRUE(failed.ok());
  EXPECT_EQ(failed->status, 503);
  EXPECT_THAT(failed->body, HasSubstr("compact failed"));
  EXPECT_THAT(failed->body, HasSubstr("disk gone"));
  // Only POST: a GET must not start a compaction.
  auto get = client->Send("GET", "/v1/admin/compact");
  ASSERT_TRUE(get.ok());
  EXPECT_EQ(get->status, 405);
  EXPECT_EQ(f_.engine.compactions(), 2);
}

TEST_F(ServerApiHttpTest, ConcurrentWritersAllSucceed) {
  constexpr int kWriters = 24, kBatches = 10, kHosts = 200;
  std::atomic<int> ok{0};
  std::vector<std::thread> threads;
  for (int w = 0; w < kWriters; ++w) {
    threads.emplace_back([&, w] {
      auto client = TestHttpClient::Connect("127.0.0.1", server_->port());
      if (!client.ok()) return;
      for (int b = 0; b < kBatches; ++b) {
        bool gzip = (w + b) % 2 == 0;
        std::string body = CpuBatch(kHosts, 1451606400000000000 + (w * kBatches + b) * 1000ll);
        std::vector<std::pair<std::string, std::string>> headers;
        if (gzip) {
          body = http::GzipCompress(body);
          headers.push_back({"Content-Encoding", "gzip"});
        }
        auto reply = (*client)->Send("POST", "/write?db=benchmark", body, headers);
        if (reply.ok() && reply->status == 204) ok.fetch_add(1);
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(ok.load(), kWriters * kBatches);
  EXPECT_EQ(f_.engine.rows_total(), static_cast<size_t>(kWriters * kBatches * kHosts));
  EXPECT_EQ(f_.engine.calls().size(), static_cast<size_t>(kWriters * kBatches));
}

TEST_F(ServerApiHttpTest, TransportErrorsUseTheEndpointDialect) {
  std::string big(5 << 20, 'x');
  auto v2 = http::HttpRequestOnce("127.0.0.1", server_->port(), "POST", "/api/v2/write?bucket=b", big);
  ASSERT_TRUE(v2.ok());
  EXPECT_EQ(v2->status, 413);
  EXPECT_THAT(v2->body, HasSubstr(R"({"code":"request too large","message":)"));
  auto v1 = http::HttpRequestOnce("127.0.0.1", server_->port(), "POST", "/write?db=d",
                                  http::GzipCompress(std::string(8 << 20, 'a')),
                                  {{"Content-Encoding", "gzip"}});
  ASSERT_TRUE(v1.ok());
  EXPECT_EQ(v1->status, 413);
  EXPECT_THAT(v1->body, HasSubstr(R"({"error":"gzip body inflates to more than the limit)"));
  auto corrupt = http::HttpRequestOnce("127.0.0.1", server_->port(), "POST", "/api/v3/write_lp?db=d",
                                       "definitely not gzip", {{"Content-Encoding", "gzip"}});
  ASSERT_TRUE(corrupt.ok());
  EXPECT_EQ(corrupt->status, 400);
  EXPECT_TRUE(f_.engine.calls().empty());
}

TEST_F(ServerApiHttpTest, ShutdownLetsBlockedWritesFinish) {
  f_.engine.CloseGate();  // writes wait inside Engine::Write, as they would for an fsync
  constexpr int kWriters = 4;
  std::vector<std::future<Result<http::TestReply>>> pending;
  for (int i = 0; i < kWriters; ++i) {
    pending.push_back(std::async(std::launch::async, [this, i] {
      return http::HttpRequestOnce("127.0.0.1", server_->port(), "POST", "/write?db=d",
                                   "cpu v=" + std::to_string(i) + " 1\n");
    }));
  }
  f_.engine.WaitForWritesEntered(kWriters);
  auto shutdown = std::async(std::launch::async, [this] { server_->Shutdown(std::chrono::seconds(30)); });
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  f_.engine.OpenGate();
  for (auto& p : pending) {
    auto reply = p.get();
    ASSERT_TRUE(reply.ok()) << reply.status().ToString();
    EXPECT_EQ(reply->status, 204);
  }
  shutdown.get();
  EXPECT_EQ(f_.engine.rows_total(), static_cast<size_t>(kWriters));
}

}  // namespace
}  // namespace gnomon::server::api
