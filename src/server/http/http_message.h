// Request and Response as handlers see them: plain structs with no Boost.Beast types, so handlers are
// unit-testable without sockets and the transport can change without touching them.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "src/base/status.h"
#include "src/server/http/query_params.h"

namespace gnomon::server::http {

enum class Method : uint8_t { kGet, kHead, kPost, kPut, kDelete, kOptions, kOther };

std::string_view MethodName(Method method);

struct Header {
  std::string_view name;
  std::string_view value;
};

// One request. The views point into the connection's buffers and stay valid until the response
// is complete (the handler and, for a streamed response, its producer have returned).
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

// Where a streamed response body goes (see Response::stream). Used by one thread at a time: the
// worker thread running the producer.
class ChunkSink {
 public:
  virtual ~ChunkSink() = default;
  // Appends `bytes` to the body as one or more HTTP chunks (an empty `bytes` sends nothing). The
  // sink copies them and starts sending; it waits for the previous Write's send first, so at most
  // one Write's worth is in flight and the producer's memory stays bounded however slow the
  // client. The first call commits the response: its head goes out first, built from the
  // Response as it is at that moment, with Transfer-Encoding: chunked (HTTP/1.0 clients: no
  // framing, and the connection closes after the body).
  // Non-OK when the client has gone or a send timed out (noticed by the Write after the one whose
  // bytes failed), when the server is cutting connections at the end of its shutdown grace
  // period, or (Aborted) when the request is a HEAD, whose answer ends with the head. The
  // producer must then stop and return; later calls fail the same way.
  virtual Status Write(std::string_view bytes) = 0;
};

struct Response;

// Produces a streamed body; see Response::stream.
using StreamProducer = std::function<Status(Response* response, ChunkSink* sink)>;

struct Response {
  int status = 200;
  std::string content_type;  // empty: no Content-Type header
  std::string body;
  std::vector<std::pair<std::string, std::string>> headers;  // extra headers

  // A body too large to hold: when set, the server calls it on the handler's worker thread once
  // the handler has returned, with this Response and a sink for the body.
  //  * Until its first sink->Write the producer may still change this Response; if it returns
  //    without having written, the Response is sent as an ordinary buffered answer (so errors
  //    found early still get their status and body). Its return value then only gets logged.
  //  * After the first Write the head has been sent and the Response must not be touched; `body`
  //    is ignored. Returning OK ends the body properly (the last chunk) and the connection goes on
  //    serving requests. Returning an error ends the body abruptly: no last chunk, and the
  //    connection is closed, so the client sees an incomplete chunked body; the error is logged.
  //  * For 1xx, 204 and 304 answers the producer is not called.
  StreamProducer stream;

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
