// The real `gnomon server` binary, end to end: what tsbs_load_influx does, error shapes from the
// real engine, graceful shutdown with writes in flight, and data surviving a restart.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <signal.h>

#include <atomic>
#include <future>
#include <thread>

#include "src/server/http/http_test_client.h"
#include "test/integration/server_process.h"

namespace gnomon::test {
namespace {

using server::http::GzipCompress;
using server::http::HttpRequestOnce;
using server::http::TestHttpClient;
using ::testing::HasSubstr;

const std::string kBinary = std::string(GNOMON_BINARY_DIR) + "/gnomon";

std::string CpuBatch(int first_host, int hosts, int64_t t) {
  std::string s;
  for (int h = first_host; h < first_host + hosts; ++h) {
    s += "cpu,hostname=host_" + std::to_string(h) +
         ",region=eu-west-1,datacenter=eu-west-1a,rack=87,os=Ubuntu16.10 usage_user=58i,"
         "usage_system=2i,usage_idle=24i,usage_nice=61i,usage_iowait=22i,usage_irq=63i,"
         "usage_softirq=6i,usage_steal=44i,usage_guest=80i,usage_guest_nice=38i " +
         std::to_string(t) + "\n";
  }
  return s;
}

class ServerIntegrationTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = MakeTempDir("gnomon-it");
    ASSERT_FALSE(dir_.empty());
    server_ = std::make_unique<ServerProcess>(kBinary, dir_, std::vector<std::string>{"--wal-sync", "none"});
    Status s = server_->Start();
    ASSERT_TRUE(s.ok()) << s.ToString();
  }
  void TearDown() override {
    server_.reset();
    RemoveTree(dir_);
  }
  Result<server::http::TestReply> Call(std::string_view method, std::string_view target,
                                       std::string_view body = {},
                                       const std::vector<std::pair<std::string, std::string>>& h = {}) {
    return HttpRequestOnce("127.0.0.1", server_->port(), method, target, body, h);
  }

  std::string dir_;
  std::unique_ptr<ServerProcess> server_;
};

TEST_F(ServerIntegrationTest, PingAndHealth) {
  auto ping = Call("HEAD", "/ping");
  ASSERT_TRUE(ping.ok());
  EXPECT_EQ(ping->status, 204);
  EXPECT_FALSE(ping->Header("x-influxdb-version").empty());
  auto health = Call("GET", "/health");
  ASSERT_TRUE(health.ok());
  EXPECT_EQ(health->status, 200);
  EXPECT_THAT(health->body, HasSubstr(R"("status":"pass")"));
}

TEST_F(ServerIntegrationTest, TsbsLoaderFlowSurvivesRestart) {
  auto client = TestHttpClient::Connect("127.0.0.1", server_->port());
  ASSERT_TRUE(client.ok());
  auto& c = **client;
  ASSERT_EQ(c.Send("GET", "/query?q=show%20databases")->status, 200);
  ASSERT_EQ(c.Send("POST", "/query?q=drop+database+benchmark", "", {{"Content-Type", "text/plain"}})->status, 200);
  ASSERT_EQ(c.Send("GET", "/query?consistency=all&q=CREATE+DATABASE+benchmark+WITH+REPLICATION+1")->status, 200);
  constexpr int kBatches = 20, kHosts = 500;
  for (int b = 0; b < kBatches; ++b) {
    auto reply = c.Send("POST", "/write?consistency=all&db=benchmark",
                        GzipCompress(CpuBatch(0, kHosts, 1451606400000000000 + b * 10000000000ll)),
                        {{"Content-Type", "text/plain"}, {"Content-Encoding", "gzip"}});
    ASSERT_TRUE(reply.ok()) << reply.status().ToString();
    ASSERT_EQ(reply->status, 204) << reply->body;
  }
  auto metrics = c.Send("GET", "/metrics");
  ASSERT_TRUE(metrics.ok());
  EXPECT_THAT(metrics->body, HasSubstr("gnomon_rows_written_total " + std::to_string(kBatches * kHosts) + "\n"));
  EXPECT_THAT(metrics->body, HasSubstr("gnomon_http_requests_total{endpoint=\"write_v1\",status=\"204\"} 20\n"));

  auto code = server_->Stop(SIGTERM);
  ASSERT_TRUE(code.ok()) << code.status().ToString();
  EXPECT_EQ(*code, 0);

  server_ = std::make_unique<ServerProcess>(kBinary, dir_);
  ASSERT_TRUE(server_->Start().ok());
  auto dbs = Call("GET", "/query?q=SHOW+DATABASES");
  ASSERT_TRUE(dbs.ok());
  EXPECT_THAT(dbs->body, HasSubstr(R"("values":[["benchmark"]])"));
  auto tables = Call("GET", "/query?db=benchmark&q=SHOW+MEASUREMENTS");
  ASSERT_TRUE(tables.ok());
  EXPECT_THAT(tables->body, HasSubstr(R"("values":[["cpu"]])"));
}

TEST_F(ServerIntegrationTest, ErrorShapes) {
  auto no_db = Call("POST", "/write", "cpu v=1 1");
  ASSERT_TRUE(no_db.ok());
  EXPECT_EQ(no_db->status, 400);
  EXPECT_EQ(no_db->body, R"({"error":"database is required"})");

  auto bad_line = Call("POST", "/write?db=d", "cpu v=1 1\ncpu v=1 2\ncpu,host=a v=x1 3\n");
  ASSERT_TRUE(bad_line.ok());
  EXPECT_EQ(bad_line->status, 400);
  EXPECT_THAT(bad_line->body, HasSubstr(R"("line":3,"column":)"));

  ASSERT_EQ(Call("POST", "/write?db=d", "cpu v=1.5 1")->status, 204);
  auto conflict = Call("POST", "/write?db=d", "cpu v=2i 2");
  ASSERT_TRUE(conflict.ok());
  EXPECT_EQ(conflict->status, 400);
  EXPECT_THAT(conflict->body, HasSubstr("field type conflict"));

  auto partial = Call("POST", "/api/v3/write_lp?db=d", "cpu v=3.5 3\ncpu v=\"s\" 4\n");
  ASSERT_TRUE(partial.ok());
  EXPECT_EQ(partial->status, 400);
  EXPECT_THAT(partial->body, HasSubstr(R"({"error":"partial write of line protocol occurred","data":[{"original_line":"cpu v=\"s\" 4","line_number":2,)"));

  auto big = Call("POST", "/write?db=d", std::string((64 << 20) + 1, 'x'));
  ASSERT_TRUE(big.ok()) << big.status().ToString();
  EXPECT_EQ(big->status, 413);
  auto query = Call("GET", "/query?q=SELECT+*+FROM+cpu&db=nosuch");
  ASSERT_TRUE(query.ok());
  EXPECT_EQ(query->body, R"({"results":[{"statement_id":0,"error":"database not found: nosuch"}]})");
}

TEST_F(ServerIntegrationTest, SigtermWhileWritingFinishesAcceptedRequests) {
  constexpr int kWriters = 8;
  std::atomic<bool> stop{false};
  std::atomic<int> accepted{0};
  std::vector<std::thread> writers;
  for (int w = 0; w < kWriters; ++w) {
    writers.emplace_back([&, w] {
      auto client = TestHttpClient::Connect("127.0.0.1", server_->port());
      if (!client.ok()) return;
      for (int b = 0; !stop.load(); ++b) {
        auto reply = (*client)->Send("POST", "/write?db=bench",
                                     CpuBatch(w * 100, 100, 1451606400000000000 + b * 1000000000ll));
        if (!reply.ok()) return;  // connection closed by the shutdown
        ASSERT_EQ(reply->status, 204) << reply->body;  // never a half-done request
        accepted.fetch_add(1);
        if (!reply->keep_alive) return;
      }
    });
  }
  while (accepted.load() < 20) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  auto code = server_->Stop(SIGTERM);
  stop = true;
  for (auto& t : writers) t.join();
  ASSERT_TRUE(code.ok());
  EXPECT_EQ(*code, 0);
}

TEST(ServerCommandTest, BadFlagsExitWithAnError) {
  std::string dir = MakeTempDir("gnomon-it");
  ServerProcess missing_dir(kBinary, dir, {"--wal-sync", "sometimes"});
  EXPECT_FALSE(missing_dir.Start(std::chrono::seconds(20)).ok());
  RemoveTree(dir);
}

}  // namespace
}  // namespace gnomon::test
