#include "src/server/http/http_server.h"

#include <gtest/gtest.h>

#include <atomic>
#include <condition_variable>
#include <future>
#include <mutex>
#include <thread>

#include "src/server/http/http_test_client.h"

namespace gnomon::server::http {
namespace {

constexpr size_t kMaxBody = 1 << 20;

// A latch the "slow" handler waits on, to hold requests in flight.
struct Gate {
  std::mutex mu;
  std::condition_variable cv;
  bool open = false;
  int waiting = 0;
  void Wait() {
    std::unique_lock<std::mutex> lock(mu);
    ++waiting;
    cv.notify_all();
    cv.wait(lock, [&] { return open; });
  }
  void WaitForWaiters(int n) {
    std::unique_lock<std::mutex> lock(mu);
    cv.wait(lock, [&] { return waiting >= n; });
  }
  void Open() {
    std::lock_guard<std::mutex> lock(mu);
    open = true;
    cv.notify_all();
  }
};

class HttpServerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    router_.Add(Method::kPost, "/echo", "echo", [this](const Request& req, Response* resp) {
      handled_.fetch_add(1);
      std::string body = std::string(req.query.GetOr("prefix", "")) + std::string(req.body);
      resp->SetText(200, "text/plain", std::move(body));
      resp->AddHeader("X-Wire-Bytes", std::to_string(req.wire_body_bytes));
    });
    router_.Add(Method::kGet, "/hello", "hello", [](const Request& req, Response* resp) {
      resp->SetText(200, "text/plain", "hello " + std::string(req.HeaderValue("x-name")));
    });
    router_.Add(Method::kGet, "/slow", "slow", [this](const Request&, Response* resp) {
      gate_.Wait();
      resp->SetText(200, "text/plain", "done");
    });
    ServerOptions options;
    options.host = "127.0.0.1";
    options.port = 0;
    options.io_threads = 2;
    options.worker_threads = 8;
    options.max_body_bytes = kMaxBody;
    options.default_headers = {{"X-Test-Server", "yes"}};
    server_ = std::make_unique<HttpServer>(options, &router_, &stats_);
    ASSERT_TRUE(server_->Start().ok());
    port_ = server_->port();
    ASSERT_NE(port_, 0);
  }
  void TearDown() override {
    gate_.Open();
    server_->Shutdown(std::chrono::seconds(10));
  }

  std::unique_ptr<TestHttpClient> Connect() {
    auto c = TestHttpClient::Connect("127.0.0.1", port_);
    EXPECT_TRUE(c.ok()) << c.status().ToString();
    return c.ok() ? std::move(*c) : nullptr;
  }

  Router router_;
  HttpStats stats_;
  std::unique_ptr<HttpServer> server_;
  uint16_t port_ = 0;
  std::atomic<int> handled_{0};
  Gate gate_;
};

TEST_F(HttpServerTest, KeepAliveServesManyRequestsOnOneConnection) {
  auto client = Connect();
  for (int i = 0; i < 20; ++i) {
    auto reply = client->Send("POST", "/echo?prefix=p" + std::to_string(i), "body");
    ASSERT_TRUE(reply.ok()) << reply.status().ToString();
    EXPECT_EQ(reply->status, 200);
    EXPECT_EQ(reply->body, "p" + std::to_string(i) + "body");
    EXPECT_TRUE(reply->keep_alive);
    EXPECT_EQ(reply->Header("x-test-server"), "yes");
  }
  EXPECT_EQ(stats_.Read().connections_total, 1u);
}

TEST_F(HttpServerTest, HeadersReachTheHandler) {
  auto reply = HttpRequestOnce("127.0.0.1", port_, "GET", "/hello", "", {{"X-Name", "gnomon"}});
  ASSERT_TRUE(reply.ok());
  EXPECT_EQ(reply->body, "hello gnomon");
}

TEST_F(HttpServerTest, HeadSendsHeadersOnly) {
  auto client = Connect();
  auto reply = client->Send("HEAD", "/hello");
  ASSERT_TRUE(reply.ok()) << reply.status().ToString();
  EXPECT_EQ(reply->status, 200);
  EXPECT_EQ(reply->body, "");
  EXPECT_EQ(reply->Header("content-length"), std::to_string(std::string("hello ").size()));
  // The connection is still in sync: a following GET works.
  auto next = client->Send("GET", "/hello", "", {{"X-Name", "x"}});
  ASSERT_TRUE(next.ok());
  EXPECT_EQ(next->body, "hello x");
}

TEST_F(HttpServerTest, UnknownPathAndMethod) {
  auto client = Connect();
  auto a = client->Send("GET", "/missing");
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(a->status, 404);
  auto b = client->Send("DELETE", "/echo");
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(b->status, 405);
  EXPECT_EQ(b->Header("allow"), "POST");
}

TEST_F(HttpServerTest, BodyOverTheLimitIs413) {
  auto client = Connect();
  auto reply = client->Send("POST", "/echo", std::string(kMaxBody + 1, 'x'));
  ASSERT_TRUE(reply.ok()) << reply.status().ToString();
  EXPECT_EQ(reply->status, 413);
  EXPECT_NE(reply->body.find("larger than the limit"), std::string::npos);
  EXPECT_FALSE(reply->keep_alive);
  // Exactly at the limit is fine.
  auto ok = HttpRequestOnce("127.0.0.1", port_, "POST", "/echo", std::string(kMaxBody, 'y'));
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ(ok->status, 200);
  EXPECT_EQ(ok->body.size(), kMaxBody);
}

TEST_F(HttpServerTest, ChunkedBodyOverTheLimitIs413) {
  auto client = Connect();
  std::string chunk(64 << 10, 'z');
  std::string raw = "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n";
  char size_line[32];
  std::snprintf(size_line, sizeof(size_line), "%zx\r\n", chunk.size());
  for (size_t sent = 0; sent <= kMaxBody; sent += chunk.size()) raw += size_line + chunk + "\r\n";
  raw += "0\r\n\r\n";
  ASSERT_TRUE(client->WriteRaw(raw).ok());
  auto reply = client->ReadReply();
  ASSERT_TRUE(reply.ok()) << reply.status().ToString();
  EXPECT_EQ(reply->status, 413);
}

TEST_F(HttpServerTest, ChunkedBodyUnderTheLimitWorks) {
  auto client = Connect();
  ASSERT_TRUE(client->WriteRaw("POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                               "5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n").ok());
  auto reply = client->ReadReply();
  ASSERT_TRUE(reply.ok());
  EXPECT_EQ(reply->body, "hello world");
}

TEST_F(HttpServerTest, GzipBodiesAreInflated) {
  std::string plain;
  for (int i = 0; i < 5000; ++i) plain += "line " + std::to_string(i) + "\n";
  std::string gz = GzipCompress(plain);
  auto client = Connect();
  auto reply = client->Send("POST", "/echo", gz, {{"Content-Encoding", "gzip"}});
  ASSERT_TRUE(reply.ok());
  EXPECT_EQ(reply->status, 200);
  EXPECT_EQ(reply->body, plain);
  EXPECT_EQ(reply->Header("x-wire-bytes"), std::to_string(gz.size()));
  // The connection stays usable after gzip requests.
  auto again = client->Send("POST", "/echo", GzipCompress("x"), {{"Content-Encoding", "GZIP"}});
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->body, "x");
  auto s = stats_.Read();
  EXPECT_EQ(s.bytes_decoded, plain.size() + 1);
}

TEST_F(HttpServerTest, CorruptGzipIs400) {
  std::string gz = GzipCompress("cpu v=1 1\n");
  gz[gz.size() - 6] ^= 0x55;  // CRC
  auto reply = HttpRequestOnce("127.0.0.1", port_, "POST", "/echo", gz, {{"Content-Encoding", "gzip"}});
  ASSERT_TRUE(reply.ok());
  EXPECT_EQ(reply->status, 400);
  auto not_gzip = HttpRequestOnce("127.0.0.1", port_, "POST", "/echo", "plain text",
                                  {{"Content-Encoding", "gzip"}});
  ASSERT_TRUE(not_gzip.ok());
  EXPECT_EQ(not_gzip->status, 400);
}

TEST_F(HttpServerTest, GzipBombIs413) {
  std::string bomb = GzipCompress(std::string(kMaxBody * 8, 'a'), 9);
  ASSERT_LT(bomb.size(), kMaxBody);
  auto reply = HttpRequestOnce("127.0.0.1", port_, "POST", "/echo", bomb, {{"Content-Encoding", "gzip"}});
  ASSERT_TRUE(reply.ok());
  EXPECT_EQ(reply->status, 413);
  EXPECT_EQ(handled_.load(), 0);
}

TEST_F(HttpServerTest, UnsupportedEncodingIs415) {
  auto reply = HttpRequestOnce("127.0.0.1", port_, "POST", "/echo", "x", {{"Content-Encoding", "br"}});
  ASSERT_TRUE(reply.ok());
  EXPECT_EQ(reply->status, 415);
}

TEST_F(HttpServerTest, ExpectContinueIsHonoured) {
  auto client = Connect();
  ASSERT_TRUE(client->WriteRaw("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n"
                               "Expect: 100-continue\r\n\r\n").ok());
  auto interim = client->ReadReply();
  ASSERT_TRUE(interim.ok()) << interim.status().ToString();
  EXPECT_EQ(interim->status, 100);
  ASSERT_TRUE(client->WriteRaw("abc").ok());
  auto reply = client->ReadReply();
  ASSERT_TRUE(reply.ok());
  EXPECT_EQ(reply->status, 200);
  EXPECT_EQ(reply->body, "abc");
}

TEST_F(HttpServerTest, PipelinedRequestsAnswerInOrder) {
  auto client = Connect();
  std::string raw;
  for (int i = 0; i < 5; ++i) {
    std::string body = "req" + std::to_string(i);
    raw += "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: " + std::to_string(body.size()) +
           "\r\n\r\n" + body;
  }
  ASSERT_TRUE(client->WriteRaw(raw).ok());
  for (int i = 0; i < 5; ++i) {
    auto reply = client->ReadReply();
    ASSERT_TRUE(reply.ok());
    EXPECT_EQ(reply->body, "req" + std::to_string(i));
  }
}

// Content-Length bodies are read straight into one buffer sized from the header: a body that
// arrives in pieces, bytes of the next request sent along with its end, and a shorter body after
// a longer one on the same connection (the buffer is reused) must all come through exactly.
TEST_F(HttpServerTest, LargeBodyInPiecesThenPipelinedShorterOne) {
  auto client = Connect();
  std::string big(kMaxBody - 1000, 'x');
  for (size_t i = 0; i < big.size(); i += 997) big[i] = static_cast<char>('a' + i % 26);
  ASSERT_TRUE(client->WriteRaw("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: " +
                               std::to_string(big.size()) + "\r\n\r\n" + big.substr(0, 100))
                  .ok());
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  ASSERT_TRUE(client->WriteRaw(std::string_view(big).substr(100, 300000)).ok());
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  std::string rest(std::string_view(big).substr(100 + 300000));
  rest += "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nshort";
  ASSERT_TRUE(client->WriteRaw(rest).ok());
  auto first = client->ReadReply();
  ASSERT_TRUE(first.ok()) << first.status().ToString();
  EXPECT_EQ(first->status, 200);
  EXPECT_TRUE(first->body == big) << "echoed " << first->body.size() << " bytes";
  auto second = client->ReadReply();
  ASSERT_TRUE(second.ok()) << second.status().ToString();
  EXPECT_EQ(second->body, "short");
  EXPECT_EQ(second->Header("x-wire-bytes"), "5");
  auto third = client->Send("POST", "/echo", "abc");
  ASSERT_TRUE(third.ok());
  EXPECT_EQ(third->body, "abc");
}

TEST_F(HttpServerTest, MalformedRequestIs400) {
  auto client = Connect();
  ASSERT_TRUE(client->WriteRaw("THIS IS NOT HTTP\r\n\r\n").ok());
  auto reply = client->ReadReply();
  ASSERT_TRUE(reply.ok()) << reply.status().ToString();
  EXPECT_EQ(reply->status, 400);
  EXPECT_TRUE(client->PeerClosed());
}

TEST_F(HttpServerTest, ConnectionCloseIsHonoured) {
  auto client = Connect();
  auto reply = client->Send("GET", "/hello", "", {{"Connection", "close"}});
  ASSERT_TRUE(reply.ok());
  EXPECT_FALSE(reply->keep_alive);
  EXPECT_TRUE(client->PeerClosed());
}

TEST_F(HttpServerTest, ConcurrentClients) {
  constexpr int kThreads = 16, kRequests = 40;
  std::atomic<int> ok{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      auto client = TestHttpClient::Connect("127.0.0.1", port_);
      if (!client.ok()) return;
      for (int i = 0; i < kRequests; ++i) {
        std::string body = std::to_string(t) + ":" + std::to_string(i);
        auto reply = (*client)->Send("POST", "/echo", body);
        if (reply.ok() && reply->status == 200 && reply->body == body) ok.fetch_add(1);
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(ok.load(), kThreads * kRequests);
  EXPECT_EQ(handled_.load(), kThreads * kRequests);
  auto s = stats_.Read();
  ASSERT_EQ(s.requests.size(), 1u);
  EXPECT_EQ(s.requests[0].route, "echo");
  EXPECT_EQ(s.requests[0].status, 200);
  EXPECT_EQ(s.requests[0].count, static_cast<uint64_t>(kThreads * kRequests));
}

TEST_F(HttpServerTest, ShutdownFinishesInFlightRequestsAndClosesIdleOnes) {
  auto idle = Connect();
  ASSERT_TRUE(idle->Send("GET", "/hello").ok());  // now idle between requests

  constexpr int kInFlight = 3;
  std::vector<std::future<Result<TestReply>>> pending;
  for (int i = 0; i < kInFlight; ++i) {
    pending.push_back(std::async(std::launch::async, [this] {
      return HttpRequestOnce("127.0.0.1", port_, "GET", "/slow");
    }));
  }
  gate_.WaitForWaiters(kInFlight);
  auto shutdown = std::async(std::launch::async, [this] { server_->Shutdown(std::chrono::seconds(30)); });

  EXPECT_TRUE(idle->PeerClosed());  // idle keep-alive connection closed promptly
  // No new connections are accepted once shutdown has begun.
  for (int i = 0; i < 50; ++i) {
    auto c = TestHttpClient::Connect("127.0.0.1", port_);
    if (!c.ok()) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    ASSERT_LT(i, 49) << "still accepting connections during shutdown";
  }
  EXPECT_EQ(shutdown.wait_for(std::chrono::milliseconds(0)), std::future_status::timeout);

  gate_.Open();
  for (auto& f : pending) {
    auto reply = f.get();
    ASSERT_TRUE(reply.ok()) << reply.status().ToString();
    EXPECT_EQ(reply->status, 200);
    EXPECT_EQ(reply->body, "done");
    EXPECT_FALSE(reply->keep_alive);
  }
  shutdown.get();
}

TEST(HttpServerStartTest, BindFailureIsAnError) {
  Router router;
  HttpStats stats;
  ServerOptions options;
  options.port = 0;
  HttpServer first(options, &router, &stats);
  ASSERT_TRUE(first.Start().ok());
  options.port = first.port();
  HttpServer second(options, &router, &stats);
  Status s = second.Start();
  EXPECT_EQ(s.code(), Status::Code::kIOError) << s.ToString();
  ServerOptions bad;
  bad.host = "not a host name!";
  HttpServer third(bad, &router, &stats);
  EXPECT_FALSE(third.Start().ok());
}


// Connections past max_connections_per_client (from one address) or max_connections (in all) get
// a 503 naming the limit and are closed; other clients go on, and a closed connection frees its
// place.
TEST(HttpServerLimitsTest, ConnectionsPastALimitAreRefusedAndOthersGoOn) {
  Router router;
  router.Add(Method::kGet, "/hello", "hello", [](const Request&, Response* resp) { resp->SetText(200, "text/plain", "hi"); });
  HttpStats stats;
  ServerOptions options;
  options.port = 0;
  options.max_connections_per_client = 3;
  options.max_connections = 5;
  HttpServer server(options, &router, &stats);
  ASSERT_TRUE(server.Start().ok());
  auto connect = [&](const std::string& source) {
    auto c = TestHttpClient::Connect("127.0.0.1", server.port(), source);
    EXPECT_TRUE(c.ok()) << c.status().ToString();
    return c.ok() ? std::move(*c) : nullptr;
  };
  auto expect_served = [](TestHttpClient* c) {
    auto reply = c->Send("GET", "/hello");
    ASSERT_TRUE(reply.ok()) << reply.status().ToString();
    EXPECT_EQ(reply->status, 200);
  };
  std::vector<std::unique_ptr<TestHttpClient>> first;
  for (int i = 0; i < 3; ++i) {
    first.push_back(connect("127.0.0.1"));
    ASSERT_NE(first.back(), nullptr);
    expect_served(first.back().get());  // the server has registered it before the next connects
  }
  auto refused = connect("127.0.0.1");
  ASSERT_NE(refused, nullptr);
  auto answer = refused->ReadReply();
  ASSERT_TRUE(answer.ok()) << answer.status().ToString();
  EXPECT_EQ(answer->status, 503);
  EXPECT_NE(answer->body.find("max-connections-per-client 3"), std::string::npos) << answer->body;
  EXPECT_TRUE(refused->PeerClosed());
  // Another address is another client; past five in all, everyone is refused.
  auto other = connect("127.0.0.2");
  ASSERT_NE(other, nullptr);
  expect_served(other.get());
  auto fifth = connect("127.0.0.3");
  ASSERT_NE(fifth, nullptr);
  expect_served(fifth.get());
  auto sixth = connect("127.0.0.4");
  ASSERT_NE(sixth, nullptr);
  answer = sixth->ReadReply();
  ASSERT_TRUE(answer.ok()) << answer.status().ToString();
  EXPECT_EQ(answer->status, 503);
  EXPECT_NE(answer->body.find("max-connections 5"), std::string::npos) << answer->body;
  EXPECT_EQ(stats.Read().connections_refused, 2u);
  // Closing one frees its place for its client; the open ones were never disturbed.
  first.pop_back();
  bool served_again = false;
  for (int attempt = 0; attempt < 100 && !served_again; ++attempt) {
    auto again = connect("127.0.0.1");
    auto reply = again == nullptr ? Result<TestReply>(Status::IOError("no connection")) : again->Send("GET", "/hello");
    served_again = reply.ok() && reply->status == 200;
    if (!served_again) std::this_thread::sleep_for(std::chrono::milliseconds(20));  // the close is seen asynchronously
  }
  EXPECT_TRUE(served_again);
  for (auto& c : first) expect_served(c.get());
  server.Shutdown(std::chrono::seconds(5));
}

}  // namespace
}  // namespace gnomon::server::http
