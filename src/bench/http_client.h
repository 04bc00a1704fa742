// A small blocking HTTP/1.1 client with one kept-alive connection, for the benchmark loader and
// query runner (one client per worker thread). Built on Boost.Beast; Beast stays out of this header.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "src/base/result.h"
#include "src/bench/url.h"

namespace gnomon::bench {

struct HttpResponse {
  int status = 0;
  std::string body;
  std::string content_type;
  bool ok() const { return status >= 200 && status < 300; }
};

struct HttpRequest {
  std::string_view method = "POST";  // GET, POST or DELETE
  std::string_view target;           // path and query, appended to the URL's base path
  std::string_view body;             // not copied; must outlive Send()
  std::string_view content_type;     // omitted when empty
  std::string_view content_encoding; // e.g. "gzip"; omitted when empty
  std::string_view authorization;    // Authorization header ("Token ..."); omitted when empty
};

// Not thread-safe: one client per thread. The connection is opened on the first request and
// reused; when a reused connection turns out to be closed by the server before any byte of the
// answer arrived, the client reconnects once and resends (the benchmark's requests are safe to
// repeat: a repeated write rewrites the same points).
class HttpClient {
 public:
  explicit HttpClient(Url url);
  ~HttpClient();
  HttpClient(const HttpClient&) = delete;
  HttpClient& operator=(const HttpClient&) = delete;

  // Sends the request and reads the whole answer (any status). Errors are transport failures only;
  // a non-2xx status is a successful exchange (see ExpectSuccess).
  Result<HttpResponse> Send(const HttpRequest& request);

  // Hands a finished answer's body back so that the next answer is read into its buffer: a large
  // answer then lands in memory already mapped instead of growing a fresh string page by page
  // (for a 200 MB answer the page faults cost more client CPU than reading the socket).
  void Recycle(std::string body) { spare_body_ = std::move(body); }

  // Connections opened so far (1 for a fully kept-alive session).
  uint64_t connects() const { return connects_; }
  const Url& url() const { return url_; }

 private:
  struct Impl;
  Status Connect();
  Status SendOnce(const HttpRequest& request, HttpResponse* response, bool* nothing_received);

  Url url_;
  std::unique_ptr<Impl> impl_;
  uint64_t connects_ = 0;
  std::string spare_body_;
};

// OK for a 2xx answer; otherwise an error naming the request and quoting the status and body
// ("POST /write?db=x: HTTP 400: {\"error\":...}"), the body cut to 2000 bytes.
Status ExpectSuccess(std::string_view what, const HttpResponse& response);

}  // namespace gnomon::bench
