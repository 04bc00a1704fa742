// Fuzz target: an HTTP request as the server receives it. The bytes go through Boost.Beast's
// request parser with the server's head and body limits (chunked bodies included), then through
// what the connection does next (http_session.cc): the head becomes a Request (target, path,
// query parameters, headers), a gzip body is inflated under the body limit, the credentials are
// read from Authorization and `p`, and the route is looked up. Invariants: the path is a prefix of
// the target, every header is found by name, inflation never exceeds the limit.
#include <boost/asio/buffer.hpp>
#include <boost/beast/core/error.hpp>
#include <boost/beast/http/parser.hpp>

#include <cctype>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "src/base/check.h"
#include "src/server/auth/credentials.h"
#include "src/server/http/beast_request.h"
#include "src/server/http/gzip_decoder.h"
#include "src/server/http/router.h"

using namespace gnomon::server;  // NOLINT

namespace {

constexpr size_t kHeadLimit = 64 << 10;  // the server's defaults, shrunk for the body
constexpr size_t kBodyLimit = 1 << 20;

const http::Router& Routes() {
  static const http::Router* router = [] {
    auto* r = new http::Router();
    for (const char* path : {"/write", "/query", "/api/v2/write", "/api/v3/write_lp", "/v1/sql", "/ping", "/health"}) {
      r->Add(http::Method::kPost, path, path, [](const http::Request&, http::Response*) {});
      r->Add(http::Method::kGet, path, path, [](const http::Request&, http::Response*) {});
    }
    return r;
  }();
  return *router;
}

// The value of the first header named `name`, compared without case: what HeaderValue promises.
std::string_view FirstValue(const http::Request& request, std::string_view name) {
  for (const http::Header& h : request.headers) {
    if (h.name.size() != name.size()) continue;
    bool same = true;
    for (size_t i = 0; i < name.size() && same; ++i) {
      same = std::tolower(static_cast<unsigned char>(h.name[i])) == std::tolower(static_cast<unsigned char>(name[i]));
    }
    if (same) return h.value;
  }
  return {};
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  namespace bhttp = boost::beast::http;
  bhttp::request_parser<bhttp::string_body> parser;
  parser.header_limit(kHeadLimit);
  parser.body_limit(kBodyLimit);
  parser.eager(true);
  boost::beast::error_code ec;
  size_t offset = 0;
  // Beast takes the bytes in as many puts as it needs; a put that takes nothing wants more.
  while (!ec && !parser.is_done() && offset < size) {
    size_t used = parser.put(boost::asio::buffer(data + offset, size - offset), ec);
    if (ec == bhttp::error::need_more) ec = {};
    if (used == 0) break;
    offset += used;
  }
  // put_eof asserts that a message began; an empty stream is what Beast's reads call end_of_stream.
  if (!ec && !parser.is_done() && parser.got_some()) parser.put_eof(ec);
  if (ec || !parser.is_done()) return 0;

  const auto& msg = parser.get();
  http::Request request;
  http::FillRequestHead(msg, &request);
  request.body = msg.body();
  GNOMON_CHECK(request.target.substr(0, request.path.size()) == request.path);
  for (const http::Header& h : request.headers) GNOMON_CHECK(request.HeaderValue(h.name) == FirstValue(request, h.name));
  for (const auto& [key, value] : request.query.items()) GNOMON_CHECK(request.query.Has(key));
  std::string_view encoding = request.HeaderValue("Content-Encoding");
  if (http::EncodingOf(encoding) == http::BodyEncoding::kGzip) {
    http::GzipDecoder gzip;
    auto inflated = gzip.Decompress(request.body, kBodyLimit);
    if (inflated.ok()) GNOMON_CHECK(inflated->size() <= kBodyLimit);
  }
  (void)auth::ExtractToken(request.HeaderValue("Authorization"), request.query.Get("p"));
  (void)Routes().RouteName(request.method, request.path);
  return 0;
}
