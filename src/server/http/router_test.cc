#include "src/server/http/router.h"

#include <gtest/gtest.h>

#include <stdexcept>

namespace gnomon::server::http {
namespace {

Request Make(Method method, std::string_view path) {
  Request r;
  r.method = method;
  r.target = path;
  r.path = path;
  return r;
}

class RouterTest : public ::testing::Test {
 protected:
  void SetUp() override {
    router_.Add(Method::kGet, "/ping", "ping", [](const Request&, Response* r) { r->SetNoContent(); });
    router_.Add(Method::kPost, "/write", "write",
                [](const Request& req, Response* r) { r->SetText(200, "text/plain", std::string(req.body)); },
                [](int status, std::string_view msg, Response* r) {
                  r->SetJson(status, "{\"code\":\"x\",\"message\":\"" + std::string(msg) + "\"}");
                });
    router_.Add(Method::kGet, "/boom", "boom",
                [](const Request&, Response*) { throw std::runtime_error("kaput"); });
  }
  Router router_;
};

TEST_F(RouterTest, DispatchesByMethodAndPath) {
  Response resp;
  EXPECT_EQ(router_.Dispatch(Make(Method::kGet, "/ping"), &resp), "ping");
  EXPECT_EQ(resp.status, 204);
  Request w = Make(Method::kPost, "/write");
  w.body = "abc";
  Response resp2;
  EXPECT_EQ(router_.Dispatch(w, &resp2), "write");
  EXPECT_EQ(resp2.body, "abc");
}

TEST_F(RouterTest, HeadFallsBackToGet) {
  Response resp;
  EXPECT_EQ(router_.Dispatch(Make(Method::kHead, "/ping"), &resp), "ping");
  EXPECT_EQ(resp.status, 204);
}

TEST_F(RouterTest, UnknownPathIs404) {
  Response resp;
  EXPECT_EQ(router_.Dispatch(Make(Method::kGet, "/nope"), &resp), "not_found");
  EXPECT_EQ(resp.status, 404);
  EXPECT_EQ(resp.body, R"({"error":"not found: /nope"})");
  EXPECT_EQ(resp.content_type, "application/json");
}

TEST_F(RouterTest, WrongMethodIs405WithAllow) {
  Response resp;
  EXPECT_EQ(router_.Dispatch(Make(Method::kGet, "/write"), &resp), "method_not_allowed");
  EXPECT_EQ(resp.status, 405);
  ASSERT_EQ(resp.headers.size(), 1u);
  EXPECT_EQ(resp.headers[0].first, "Allow");
  EXPECT_EQ(resp.headers[0].second, "POST");
  Response resp2;
  router_.Dispatch(Make(Method::kPost, "/ping"), &resp2);
  EXPECT_EQ(resp2.status, 405);
  EXPECT_EQ(resp2.headers[0].second, "GET, HEAD");
}

TEST_F(RouterTest, ExceptionBecomes500) {
  Response resp;
  EXPECT_EQ(router_.Dispatch(Make(Method::kGet, "/boom"), &resp), "boom");
  EXPECT_EQ(resp.status, 500);
  EXPECT_NE(resp.body.find("kaput"), std::string::npos);
}

TEST_F(RouterTest, TransportErrorsUseTheRouteDialect) {
  Response resp;
  router_.WriteError(Method::kPost, "/write", 413, "too big", &resp);
  EXPECT_EQ(resp.status, 413);
  EXPECT_EQ(resp.body, R"({"code":"x","message":"too big"})");
  Response resp2;
  router_.WriteError(Method::kGet, "/other", 413, "too big", &resp2);
  EXPECT_EQ(resp2.body, R"({"error":"too big"})");
  EXPECT_EQ(router_.RouteName(Method::kPost, "/write"), "write");
  EXPECT_EQ(router_.RouteName(Method::kPost, "/zzz"), "not_found");
}

}  // namespace
}  // namespace gnomon::server::http
