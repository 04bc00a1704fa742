#include "src/bench/http_client.h"

#include <gtest/gtest.h>

#include <atomic>

#include "src/bench/fake_http_server.h"

namespace gnomon::bench {
namespace {

using testing::FakeHttpServer;
using testing::FakeRequest;
using testing::FakeResponse;

HttpClient ClientFor(const FakeHttpServer& server) { return HttpClient(*ParseUrl(server.url())); }

TEST(HttpClientTest, KeepsOneConnectionAlive) {
  FakeHttpServer server([](const FakeRequest& r) {
    return FakeResponse{200, r.method + " " + r.target + " " + r.body};
  });
  HttpClient client = ClientFor(server);
  for (int i = 0; i < 20; ++i) {
    std::string body = "n=" + std::to_string(i);
    std::string target = "/echo?i=" + std::to_string(i);  // HttpRequest holds views only
    HttpRequest req;
    req.target = target;
    req.body = body;
    req.content_type = "text/plain";
    auto res = client.Send(req);
    ASSERT_TRUE(res.ok()) << res.status().ToString();
    EXPECT_EQ(res->status, 200);
    EXPECT_EQ(res->body, "POST /echo?i=" + std::to_string(i) + " n=" + std::to_string(i));
  }
  EXPECT_EQ(client.connects(), 1u);
  EXPECT_EQ(server.connections(), 1);
}

TEST(HttpClientTest, SendsHeadersAndGet) {
  FakeRequest seen;
  FakeHttpServer server([&](const FakeRequest& r) {
    seen = r;
    return FakeResponse{204, ""};
  });
  HttpClient client(*ParseUrl(server.url() + "/base"));
  HttpRequest req;
  req.target = "/write?db=x";
  req.body = "abc";
  req.content_type = "text/plain; charset=utf-8";
  req.content_encoding = "gzip";
  auto res = client.Send(req);
  ASSERT_TRUE(res.ok());
  EXPECT_EQ(res->status, 204);
  EXPECT_TRUE(res->ok());
  EXPECT_EQ(seen.target, "/base/write?db=x");
  EXPECT_EQ(seen.headers["content-encoding"], "gzip");
  EXPECT_EQ(seen.headers["content-type"], "text/plain; charset=utf-8");
  EXPECT_EQ(seen.headers["content-length"], "3");
  HttpRequest get;
  get.method = "GET";
  get.target = "/ping";
  ASSERT_TRUE(client.Send(get).ok());
  EXPECT_EQ(seen.method, "GET");
  EXPECT_EQ(seen.body, "");
}

TEST(HttpClientTest, DetectsNon2xx) {
  FakeHttpServer server([](const FakeRequest&) {
    return FakeResponse{400, R"({"error":"unable to parse 'x': missing fields"})"};
  });
  HttpClient client = ClientFor(server);
  HttpRequest req;
  req.target = "/write?db=b";
  auto res = client.Send(req);
  ASSERT_TRUE(res.ok());
  EXPECT_EQ(res->status, 400);
  EXPECT_FALSE(res->ok());
  Status s = ExpectSuccess("POST /write?db=b", *res);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("POST /write?db=b: HTTP 400"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("missing fields"), std::string::npos);
  EXPECT_TRUE(ExpectSuccess("x", HttpResponse{204, "", ""}).ok());
  EXPECT_FALSE(ExpectSuccess("x", HttpResponse{301, "", ""}).ok());
  EXPECT_FALSE(ExpectSuccess("x", HttpResponse{500, "", ""}).ok());
}

TEST(HttpClientTest, ReconnectsWhenTheServerClosesConnections) {
  FakeHttpServer server([](const FakeRequest&) {
    FakeResponse r{200, "ok"};
    r.close = true;
    return r;
  });
  HttpClient client = ClientFor(server);
  for (int i = 0; i < 3; ++i) {
    HttpRequest req;
    req.target = "/";
    auto res = client.Send(req);
    ASSERT_TRUE(res.ok()) << res.status().ToString();
    EXPECT_EQ(res->body, "ok");
  }
  EXPECT_EQ(client.connects(), 3u);
}

TEST(HttpClientTest, RetriesOnceWhenAKeptConnectionWasDropped) {
  std::atomic<int> calls{0};
  FakeHttpServer server([&](const FakeRequest&) {
    FakeResponse r{200, "ok"};
    if (++calls == 2) r.drop = true;  // the second request finds a dead connection
    return r;
  });
  HttpClient client = ClientFor(server);
  HttpRequest req;
  req.target = "/";
  ASSERT_TRUE(client.Send(req).ok());
  auto res = client.Send(req);
  ASSERT_TRUE(res.ok()) << res.status().ToString();
  EXPECT_EQ(res->body, "ok");
  EXPECT_EQ(client.connects(), 2u);
}

TEST(HttpClientTest, FailsOnAFreshConnectionThatDrops) {
  FakeHttpServer server([](const FakeRequest&) {
    FakeResponse r;
    r.drop = true;
    return r;
  });
  HttpClient client = ClientFor(server);
  HttpRequest req;
  req.target = "/";
  EXPECT_FALSE(client.Send(req).ok());
}

TEST(HttpClientTest, ConnectionRefusedIsAnError) {
  int port;
  { FakeHttpServer gone([](const FakeRequest&) { return FakeResponse{}; }); port = gone.port(); }
  HttpClient client(*ParseUrl("http://127.0.0.1:" + std::to_string(port)));
  HttpRequest req;
  req.target = "/";
  auto res = client.Send(req);
  ASSERT_FALSE(res.ok());
  EXPECT_EQ(res.status().code(), Status::Code::kIOError);
}

TEST(HttpClientTest, ReadsLargeBodies) {
  std::string big(5 << 20, 'x');
  FakeHttpServer server([&](const FakeRequest& r) { return FakeResponse{200, big + r.body}; });
  HttpClient client = ClientFor(server);
  std::string upload(3 << 20, 'y');
  HttpRequest req;
  req.target = "/";
  req.body = upload;
  auto res = client.Send(req);
  ASSERT_TRUE(res.ok());
  EXPECT_EQ(res->body.size(), big.size() + upload.size());
}

}  // namespace
}  // namespace gnomon::bench
