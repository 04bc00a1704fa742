#include "src/bench/async_http_client.h"

#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <thread>
#include <vector>

#include "src/bench/fake_http_server.h"

namespace gnomon::bench {
namespace {

using testing::FakeHttpServer;
using testing::FakeRequest;
using testing::FakeResponse;

// One exchange, run to its end on `loop`.
Result<HttpResponse> SendAndWait(EventLoop* loop, AsyncHttpClient* client, const HttpRequest& request) {
  Status status = Status::Internal("the exchange never finished");
  HttpResponse response;
  client->Send(request, [&](Status s, HttpResponse* r) {
    status = std::move(s);
    if (status.ok()) response = std::move(*r);
  });
  loop->Run();
  if (!status.ok()) return status;
  return response;
}

HttpRequest Post(std::string_view target, std::string_view body = {}) {
  HttpRequest req;
  req.target = target;
  req.body = body;
  req.content_type = "text/plain";
  return req;
}

TEST(AsyncHttpClientTest, ChainsExchangesOnOneKeptConnection) {
  FakeHttpServer server([](const FakeRequest& r) {
    return FakeResponse{200, r.method + " " + r.target + " " + r.body};
  });
  EventLoop loop;
  AsyncHttpClient client(&loop, *ParseUrl(server.url() + "/base"));
  // Each answer starts the next exchange from the callback, as the query runner does.
  std::vector<std::string> answers;
  std::string target, body;
  std::function<void(int)> send = [&](int i) {
    target = "/echo?i=" + std::to_string(i);
    body = "n=" + std::to_string(i);
    client.Send(Post(target, body), [&, i](Status s, HttpResponse* r) {
      ASSERT_TRUE(s.ok()) << s.ToString();
      EXPECT_EQ(r->status, 200);
      answers.push_back(r->body);
      client.Recycle(std::move(r->body));
      if (i + 1 < 20) send(i + 1);
    });
  };
  send(0);
  loop.Run();
  ASSERT_EQ(answers.size(), 20u);
  for (int i = 0; i < 20; ++i) {
    EXPECT_EQ(answers[i], "POST /base/echo?i=" + std::to_string(i) + " n=" + std::to_string(i));
  }
  EXPECT_EQ(client.connects(), 1u);
  EXPECT_EQ(server.connections(), 1);
}

TEST(AsyncHttpClientTest, ManyConnectionsOnTwoLoopsAtOnce) {
  std::atomic<int> requests{0};
  FakeHttpServer server([&](const FakeRequest& r) {
    ++requests;
    return FakeResponse{200, r.body};
  });
  constexpr int kClients = 12, kEach = 5;
  EventLoop loops[2];
  std::vector<std::unique_ptr<AsyncHttpClient>> clients;
  std::vector<std::string> bodies(kClients);
  std::atomic<int> ok{0};
  std::vector<std::function<void(int)>> next(kClients);
  for (int c = 0; c < kClients; ++c) {
    clients.push_back(std::make_unique<AsyncHttpClient>(&loops[c % 2], *ParseUrl(server.url())));
    next[c] = [&, c](int i) {
      bodies[c] = std::to_string(c) + ":" + std::to_string(i);
      clients[c]->Send(Post("/", bodies[c]), [&, c, i](Status s, HttpResponse* r) {
        ASSERT_TRUE(s.ok()) << s.ToString();
        EXPECT_EQ(r->body, std::to_string(c) + ":" + std::to_string(i));
        ++ok;
        if (i + 1 < kEach) next[c](i + 1);
      });
    };
    next[c](0);
  }
  std::thread second([&] { loops[1].Run(); });
  loops[0].Run();
  second.join();
  EXPECT_EQ(ok.load(), kClients * kEach);
  EXPECT_EQ(requests.load(), kClients * kEach);
  EXPECT_EQ(server.connections(), kClients);
}

TEST(AsyncHttpClientTest, ReconnectsWhenTheServerClosesConnections) {
  FakeHttpServer server([](const FakeRequest&) {
    FakeResponse r{200, "ok"};
    r.close = true;
    return r;
  });
  EventLoop loop;
  AsyncHttpClient client(&loop, *ParseUrl(server.url()));
  for (int i = 0; i < 3; ++i) {
    auto res = SendAndWait(&loop, &client, Post("/"));
    ASSERT_TRUE(res.ok()) << res.status().ToString();
    EXPECT_EQ(res->body, "ok");
  }
  EXPECT_EQ(client.connects(), 3u);
}

TEST(AsyncHttpClientTest, RetriesOnceWhenAKeptConnectionWasDropped) {
  std::atomic<int> calls{0};
  FakeHttpServer server([&](const FakeRequest&) {
    FakeResponse r{200, "ok"};
    if (++calls == 2) r.drop = true;  // the second request finds a dead connection
    return r;
  });
  EventLoop loop;
  AsyncHttpClient client(&loop, *ParseUrl(server.url()));
  ASSERT_TRUE(SendAndWait(&loop, &client, Post("/")).ok());
  auto res = SendAndWait(&loop, &client, Post("/"));
  ASSERT_TRUE(res.ok()) << res.status().ToString();
  EXPECT_EQ(res->body, "ok");
  EXPECT_EQ(client.connects(), 2u);
}

TEST(AsyncHttpClientTest, FailsOnAFreshConnectionThatDrops) {
  FakeHttpServer server([](const FakeRequest&) {
    FakeResponse r;
    r.drop = true;
    return r;
  });
  EventLoop loop;
  AsyncHttpClient client(&loop, *ParseUrl(server.url()));
  auto res = SendAndWait(&loop, &client, Post("/"));
  ASSERT_FALSE(res.ok());
  EXPECT_EQ(res.status().code(), Status::Code::kIOError);
}

TEST(AsyncHttpClientTest, ConnectionRefusedIsAnError) {
  int port;
  { FakeHttpServer gone([](const FakeRequest&) { return FakeResponse{}; }); port = gone.port(); }
  EventLoop loop;
  AsyncHttpClient client(&loop, *ParseUrl("http://127.0.0.1:" + std::to_string(port)));
  auto res = SendAndWait(&loop, &client, Post("/"));
  ASSERT_FALSE(res.ok());
  EXPECT_EQ(res.status().code(), Status::Code::kIOError);
  EXPECT_NE(res.status().message().find("connect"), std::string::npos) << res.status().message();
}

TEST(AsyncHttpClientTest, ReadsLargeBodiesAndNon2xx) {
  std::string big(5 << 20, 'x');
  FakeHttpServer server([&](const FakeRequest& r) {
    if (r.target == "/bad") return FakeResponse{400, R"({"error":"no"})"};
    return FakeResponse{200, big + r.body};
  });
  EventLoop loop;
  AsyncHttpClient client(&loop, *ParseUrl(server.url()));
  std::string upload(3 << 20, 'y');
  auto res = SendAndWait(&loop, &client, Post("/", upload));
  ASSERT_TRUE(res.ok()) << res.status().ToString();
  EXPECT_EQ(res->body.size(), big.size() + upload.size());
  auto bad = SendAndWait(&loop, &client, Post("/bad"));
  ASSERT_TRUE(bad.ok());
  EXPECT_EQ(bad->status, 400);
  EXPECT_FALSE(ExpectSuccess("POST /bad", *bad).ok());
}

}  // namespace
}  // namespace gnomon::bench
