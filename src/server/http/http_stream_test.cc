// Streamed responses (Response::stream) over real sockets, with fake producers.
#include <gtest/gtest.h>

#include <atomic>
#include <charconv>
#include <chrono>
#include <condition_variable>
#include <future>
#include <mutex>
#include <thread>

#include "src/server/http/http_server.h"
#include "src/server/http/http_test_client.h"

namespace gnomon::server::http {
namespace {

// Deterministic, non-repeating-looking body bytes, so that a lost or reordered piece shows.
char BodyByte(size_t i) { return static_cast<char>('a' + (i * 7 + i / 4093) % 26); }

std::string ExpectedBody(size_t n) {
  std::string s(n, '\0');
  for (size_t i = 0; i < n; ++i) s[i] = BodyByte(i);
  return s;
}

size_t ParamOr(const Request& req, std::string_view name, size_t fallback) {
  auto v = req.query.Get(name);
  if (!v) return fallback;
  size_t n = fallback;
  std::from_chars(v->data(), v->data() + v->size(), n);
  return n;
}

// What a producer saw, for the test to wait on.
struct ProducerLog {
  std::mutex mu;
  std::condition_variable cv;
  bool finished = false;
  Status first_error;  // the first non-OK Write
  size_t written = 0;  // bytes accepted by the sink
  bool started = false;
  bool at_gate = false;
  bool gate_open = false;

  void Start() {
    std::lock_guard<std::mutex> lock(mu);
    started = true;
    cv.notify_all();
  }
  void WaitStarted() {
    std::unique_lock<std::mutex> lock(mu);
    cv.wait(lock, [&] { return started; });
  }

  void Finish(const Status& error, size_t bytes) {
    std::lock_guard<std::mutex> lock(mu);
    finished = true;
    first_error = error;
    written = bytes;
    cv.notify_all();
  }
  bool WaitFinished(std::chrono::seconds limit = std::chrono::seconds(60)) {
    std::unique_lock<std::mutex> lock(mu);
    return cv.wait_for(lock, limit, [&] { return finished; });
  }
  void PassGate() {
    std::unique_lock<std::mutex> lock(mu);
    at_gate = true;
    cv.notify_all();
    cv.wait(lock, [&] { return gate_open; });
  }
  void WaitAtGate() {
    std::unique_lock<std::mutex> lock(mu);
    cv.wait(lock, [&] { return at_gate; });
  }
  void OpenGate() {
    std::lock_guard<std::mutex> lock(mu);
    gate_open = true;
    cv.notify_all();
  }
};

class HttpStreamTest : public ::testing::Test {
 protected:
  void SetUp() override {
    router_.Add(Method::kGet, "/hello", "hello",
                [](const Request&, Response* resp) { resp->SetText(200, "text/plain", "hello"); });
    // /stream?bytes=N&piece=M&gate=K: N body bytes in Writes of M bytes; with gate, waits for
    // the test after K bytes. Stops at the first failed Write.
    router_.Add(Method::kGet, "/stream", "stream", [this](const Request& req, Response* resp) {
      size_t total = ParamOr(req, "bytes", 1000);
      size_t piece = std::max<size_t>(1, ParamOr(req, "piece", 1000));
      size_t gate = ParamOr(req, "gate", SIZE_MAX);
      resp->SetText(200, "application/octet-stream", "");
      resp->AddHeader("X-Stream", "yes");
      resp->stream = [this, total, piece, gate](Response*, ChunkSink* sink) mutable {
        std::string buf;
        size_t sent = 0;
        while (sent < total) {
          if (sent >= gate) {
            log_.PassGate();
            gate = SIZE_MAX;
          }
          size_t n = std::min(piece, total - sent);
          buf.resize(n);
          for (size_t i = 0; i < n; ++i) buf[i] = BodyByte(sent + i);
          Status s = sink->Write(buf);
          if (!s.ok()) {
            log_.Finish(s, sent);
            return s;
          }
          sent += n;
        }
        log_.Finish(Status::OK(), sent);
        return Status::OK();
      };
    });
    // Writes until a Write fails.
    router_.Add(Method::kGet, "/endless", "endless", [this](const Request&, Response* resp) {
      resp->SetText(200, "text/plain", "");
      resp->stream = [this](Response*, ChunkSink* sink) {
        log_.Start();
        std::string buf(64 << 10, 'e');
        size_t sent = 0;
        for (;;) {
          Status s = sink->Write(buf);
          if (!s.ok()) {
            log_.Finish(s, sent);
            return s;
          }
          sent += buf.size();
        }
      };
    });
    // The producer decides the answer itself without streaming: ?fail=1 returns an error.
    router_.Add(Method::kGet, "/early", "early", [](const Request& req, Response* resp) {
      bool fail = req.query.Get("fail").has_value();
      resp->SetText(200, "text/plain", "");
      resp->stream = [fail](Response* r, ChunkSink*) {
        if (fail) return Status::IOError("disk on fire");
        r->SetText(201, "text/plain", "small answer");
        return Status::OK();
      };
    });
    // Sends some bytes, then fails.
    router_.Add(Method::kGet, "/late-failure", "late", [](const Request&, Response* resp) {
      resp->SetText(200, "text/plain", "");
      resp->stream = [](Response*, ChunkSink* sink) {
        GNOMON_RETURN_IF_ERROR(sink->Write(std::string(100 << 10, 'x')));
        return Status::Corruption("bad block in segment 7");
      };
    });
    ServerOptions options;
    options.port = 0;
    options.io_threads = 2;
    options.worker_threads = 4;
    server_ = std::make_unique<HttpServer>(options, &router_, &stats_);
    ASSERT_TRUE(server_->Start().ok());
    port_ = server_->port();
  }
  void TearDown() override {
    log_.OpenGate();
    if (server_) server_->Shutdown(std::chrono::seconds(10));
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
  ProducerLog log_;
};

TEST_F(HttpStreamTest, LargeStreamArrivesIntactThenKeepAliveContinues) {
  constexpr size_t kBytes = 50 << 20;
  auto client = Connect();
  auto reply = client->Send("GET", "/stream?bytes=" + std::to_string(kBytes) + "&piece=3001");
  ASSERT_TRUE(reply.ok()) << reply.status().ToString();
  EXPECT_EQ(reply->status, 200);
  EXPECT_EQ(reply->Header("transfer-encoding"), "chunked");
  EXPECT_EQ(reply->Header("content-length"), "");
  EXPECT_EQ(reply->Header("content-type"), "application/octet-stream");
  EXPECT_EQ(reply->Header("x-stream"), "yes");
  EXPECT_TRUE(reply->keep_alive);
  ASSERT_EQ(reply->body.size(), kBytes);
  EXPECT_TRUE(reply->body == ExpectedBody(kBytes)) << "body bytes differ";
  ASSERT_TRUE(log_.WaitFinished());
  EXPECT_TRUE(log_.first_error.ok());

  // The same connection serves the next request.
  auto next = client->Send("GET", "/hello");
  ASSERT_TRUE(next.ok()) << next.status().ToString();
  EXPECT_EQ(next->body, "hello");
  auto stats = stats_.Read();
  EXPECT_EQ(stats.connections_total, 1u);
  EXPECT_EQ(stats.bytes_sent, kBytes + 5);
  ASSERT_EQ(stats.requests.size(), 2u);
  EXPECT_EQ(stats.requests[1].route, "stream");
  EXPECT_EQ(stats.requests[1].status, 200);
}

TEST_F(HttpStreamTest, ManyStreamsOnOneConnection) {
  auto client = Connect();
  for (size_t n : {1, 10, 4095, 4096, 70000}) {
    auto reply = client->Send("GET", "/stream?bytes=" + std::to_string(n) + "&piece=4096");
    ASSERT_TRUE(reply.ok()) << reply.status().ToString();
    EXPECT_EQ(reply->body, ExpectedBody(n));
    EXPECT_EQ(reply->Header("transfer-encoding"), "chunked");
  }
  // A zero-byte stream never writes: an ordinary empty answer.
  auto empty = client->Send("GET", "/stream?bytes=0");
  ASSERT_TRUE(empty.ok());
  EXPECT_EQ(empty->status, 200);
  EXPECT_EQ(empty->body, "");
  EXPECT_EQ(empty->Header("content-length"), "0");
}

TEST_F(HttpStreamTest, ClientDisconnectStopsTheProducer) {
  {
    auto client = Connect();
    ASSERT_TRUE(client->WriteRaw("GET /endless HTTP/1.1\r\nHost: x\r\n\r\n").ok());
    ASSERT_TRUE(client->DiscardBytes(1 << 20).ok());  // the head and the first chunks
  }  // the client closes its socket with the stream under way
  ASSERT_TRUE(log_.WaitFinished()) << "the producer never saw the client go";
  EXPECT_FALSE(log_.first_error.ok());
  EXPECT_EQ(log_.first_error.code(), Status::Code::kIOError) << log_.first_error.ToString();
  // The server is fine.
  auto reply = HttpRequestOnce("127.0.0.1", port_, "GET", "/hello");
  ASSERT_TRUE(reply.ok());
  EXPECT_EQ(reply->body, "hello");
}

TEST_F(HttpStreamTest, HeadSendsTheHeadAndStopsTheProducer) {
  auto client = Connect();
  auto reply = client->Send("HEAD", "/stream?bytes=100000&piece=1000");
  ASSERT_TRUE(reply.ok()) << reply.status().ToString();
  EXPECT_EQ(reply->status, 200);
  EXPECT_EQ(reply->body, "");
  EXPECT_EQ(reply->Header("transfer-encoding"), "chunked");
  EXPECT_EQ(reply->Header("x-stream"), "yes");
  ASSERT_TRUE(log_.WaitFinished());
  EXPECT_EQ(log_.first_error.code(), Status::Code::kAborted);
  EXPECT_EQ(log_.written, 0u);
  // Still in sync: the next request on the connection works.
  auto next = client->Send("GET", "/hello");
  ASSERT_TRUE(next.ok()) << next.status().ToString();
  EXPECT_EQ(next->body, "hello");
  // A HEAD whose producer answers without streaming gets that answer's Content-Length.
  auto early = client->Send("HEAD", "/early");
  ASSERT_TRUE(early.ok());
  EXPECT_EQ(early->status, 201);
  EXPECT_EQ(early->Header("content-length"), "12");
}

TEST_F(HttpStreamTest, Http10ClientGetsACloseDelimitedBody) {
  constexpr size_t kBytes = 300000;
  auto client = Connect();
  ASSERT_TRUE(client->WriteRaw("GET /stream?bytes=300000&piece=7000 HTTP/1.0\r\n\r\n").ok());
  auto reply = client->ReadReply();
  ASSERT_TRUE(reply.ok()) << reply.status().ToString();
  EXPECT_EQ(reply->status, 200);
  EXPECT_EQ(reply->Header("transfer-encoding"), "");
  EXPECT_EQ(reply->Header("content-length"), "");
  EXPECT_EQ(reply->body, ExpectedBody(kBytes));
  EXPECT_TRUE(client->PeerClosed());
}

TEST_F(HttpStreamTest, ProducerAnsweringWithoutStreamingIsBuffered) {
  auto client = Connect();
  auto reply = client->Send("GET", "/early");
  ASSERT_TRUE(reply.ok());
  EXPECT_EQ(reply->status, 201);
  EXPECT_EQ(reply->body, "small answer");
  EXPECT_EQ(reply->Header("content-length"), "12");
  EXPECT_EQ(reply->Header("transfer-encoding"), "");
  // Failing before any Write is a 500 in the route's error dialect.
  auto failed = client->Send("GET", "/early?fail=1");
  ASSERT_TRUE(failed.ok());
  EXPECT_EQ(failed->status, 500);
  EXPECT_NE(failed->body.find("disk on fire"), std::string::npos) << failed->body;
  EXPECT_TRUE(failed->keep_alive);
}

TEST_F(HttpStreamTest, FailureAfterStreamingBeganCutsTheBody) {
  auto client = Connect();
  auto reply = client->Send("GET", "/late-failure");
  // The head said 200, but the chunked body never ends: the client sees an error, not a reply.
  EXPECT_FALSE(reply.ok());
  EXPECT_TRUE(client->PeerClosed());
  auto stats = stats_.Read();
  ASSERT_EQ(stats.requests.size(), 1u);
  EXPECT_EQ(stats.requests[0].status, 200);
  EXPECT_EQ(stats.bytes_sent, 100u << 10);
}

TEST_F(HttpStreamTest, ShutdownLetsARunningStreamFinish) {
  constexpr size_t kBytes = 2 << 20;
  auto client = Connect();
  auto pending = std::async(std::launch::async, [&] {
    return client->Send("GET", "/stream?bytes=" + std::to_string(kBytes) +
                                   "&piece=65536&gate=" + std::to_string(kBytes / 2));
  });
  log_.WaitAtGate();
  auto shutdown =
      std::async(std::launch::async, [this] { server_->Shutdown(std::chrono::seconds(30)); });
  // Shutdown has begun once new connections are refused.
  for (int i = 0; i < 500; ++i) {
    if (!TestHttpClient::Connect("127.0.0.1", port_).ok()) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  log_.OpenGate();
  auto reply = pending.get();
  ASSERT_TRUE(reply.ok()) << reply.status().ToString();
  EXPECT_EQ(reply->body, ExpectedBody(kBytes));
  EXPECT_TRUE(client->PeerClosed());  // closed after the stream instead of serving more
  shutdown.get();
  ASSERT_TRUE(log_.WaitFinished());
  EXPECT_TRUE(log_.first_error.ok());
}

TEST_F(HttpStreamTest, ShutdownCutsAStreamThatOutlastsTheGrace) {
  auto client = Connect();
  // The client never reads: the producer ends up blocked in a send that cannot finish.
  ASSERT_TRUE(client->WriteRaw("GET /endless HTTP/1.1\r\nHost: x\r\n\r\n").ok());
  log_.WaitStarted();
  server_->Shutdown(std::chrono::milliseconds(200));  // returns: the producer's worker finished
  ASSERT_TRUE(log_.WaitFinished(std::chrono::seconds(0)));
  EXPECT_EQ(log_.first_error.code(), Status::Code::kAborted) << log_.first_error.ToString();
  server_.reset();
  auto reply = client->ReadReply();
  EXPECT_FALSE(reply.ok());  // the body is incomplete: no last chunk
}

}  // namespace
}  // namespace gnomon::server::http
