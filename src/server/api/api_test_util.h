// Helpers for the API handler tests: requests built like the HTTP session builds them, and a
// Router with every API route bound to a FakeEngine.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "src/server/api/api_context.h"
#include "src/server/api/api_routes.h"
#include "src/server/api/fake_engine_for_test.h"
#include "src/server/http/router.h"

namespace gnomon::server::api {

struct ApiFixture {
  ApiFixture() {
    ctx.engine = &engine;
    ctx.http_stats = &http_stats;
    RegisterApiRoutes(&ctx, &router);
  }

  // Runs one request through the router. `target` is "/path?query"; the strings must outlive the
  // call (they do: they are copied into the fixture).
  http::Response Call(http::Method method, std::string target, std::string body = "",
                      std::vector<std::pair<std::string, std::string>> headers = {}) {
    target_ = std::move(target);
    body_ = std::move(body);
    headers_ = std::move(headers);
    http::Request req;
    req.method = method;
    req.target = target_;
    size_t q = target_.find('?');
    req.path = std::string_view(target_).substr(0, q);
    if (q != std::string::npos) req.query = http::QueryParams::Parse(std::string_view(target_).substr(q + 1));
    for (const auto& [k, v] : headers_) req.headers.push_back({k, v});
    req.body = body_;
    req.wire_body_bytes = body_.size();
    req.receive_time_ns = receive_time_ns;
    http::Response resp;
    router.Dispatch(req, &resp);
    RunStream(&resp);
    return resp;
  }
  http::Response Post(std::string target, std::string body) {
    return Call(http::Method::kPost, std::move(target), std::move(body));
  }
  http::Response Get(std::string target) { return Call(http::Method::kGet, std::move(target)); }

  // A streamed answer as the server sends it: the producer runs after the handler; what it
  // wrote becomes the body (the head as the Response was at its first write).
  static void RunStream(http::Response* resp) {
    if (!resp->stream) return;
    struct Collect final : http::ChunkSink {
      Status Write(std::string_view bytes) override {
        wrote = true;
        body.append(bytes);
        return Status::OK();
      }
      bool wrote = false;
      std::string body;
    } sink;
    auto producer = std::move(resp->stream);
    resp->stream = nullptr;
    Status s = producer(resp, &sink);
    if (sink.wrote) resp->body = std::move(sink.body);
    if (!s.ok() && sink.wrote) resp->body += "<cut: " + s.message() + ">";
  }

  FakeEngine engine;
  http::HttpStats http_stats;
  ApiContext ctx;
  http::Router router;
  int64_t receive_time_ns = 1'700'000'000'123'456'789;

 private:
  std::string target_, body_;
  std::vector<std::pair<std::string, std::string>> headers_;
};

}  // namespace gnomon::server::api
