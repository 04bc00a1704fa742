// Request and Response as handlers see them: plain structs with no Boost.Beast types, so handlers are
// unit-testable without sockets and the transport can change without touching them.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "src/server/http/query_params.h"

namespace gnomon::server::http {

enum class Method : uint8_t { kGet, kHead, kPost, kPut, kDelete, kOptions, kOther };

std::string_view MethodName(Method method);

struct Header {
  std::string_view name;
  std::string_view value;
};

// One request. The views point into the connection's buffers and stay valid until the handler
// returns; a handler that needs anything longer must copy it.
struct Request {
  Method method = Method::kGet;
  std::string_view target;  // as sent: "/write?db=x"
  std::string_view path;    // target before '?': "/write"
  QueryParams query;        // decoded query-string parameters
  std::vector<Header> headers;
  std::string_view body;        // after Content-Encoding decoding
  uint64_t wire_body_bytes = 0;  // body bytes as received (compressed size for gzip)
  int64_t receive_time_ns = 0;   // wall clock when the request head arrived

  // Value of the first header named `name` (case-insensitive); empty when absent.
  std::string_view HeaderValue(std::string_view name) const;
};

struct Response {
  int status = 200;
  std::string content_type;  // empty: no Content-Type header
  std::string body;
  std::vector<std::pair<std::string, std::string>> headers;  // extra headers

  void SetJson(int status_code, std::string json) {
    status = status_code;
    content_type = "application/json";
    body = std::move(json);
  }
  void SetText(int status_code, std::string content_type_value, std::string text) {
    status = status_code;
    content_type = std::move(content_type_value);
    body = std::move(text);
  }
  void SetNoContent() {
    status = 204;
    content_type.clear();
    body.clear();
  }
  void AddHeader(std::string name, std::string value) {
    headers.emplace_back(std::move(name), std::move(value));
  }
};

// Handlers run on the server's worker pool and may block (Engine::Write waits for fsync).
// They must not throw; the server turns an escaped exception into a 500.
using Handler = std::function<void(const Request&, Response*)>;

}  // namespace gnomon::server::http
