// TestHttpClient: a small blocking HTTP/1.1 client for tests (unit tests against an in-process
// HttpServer, integration tests against the `gnomon server` binary). Keeps one connection open
// across requests, so keep-alive can be asserted.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "src/base/result.h"

namespace gnomon::server::http {

struct TestReply {
  int status = 0;
  std::string body;
  std::map<std::string, std::string> headers;  // names lower-cased
  bool keep_alive = false;

  std::string Header(const std::string& lower_name) const {
    auto it = headers.find(lower_name);
    return it == headers.end() ? std::string() : it->second;
  }
};

class TestHttpClient {
 public:
  // `source`: the local address to connect from ("127.0.0.2": another client of a loopback
  // server, since all of 127.0.0.0/8 is local); empty: the system's choice.
  static Result<std::unique_ptr<TestHttpClient>> Connect(const std::string& host, uint16_t port,
                                                         const std::string& source = "");
  ~TestHttpClient();

  // Sends one request and reads its response on the open connection.
  Result<TestReply> Send(std::string_view method, std::string_view target,
                         std::string_view body = {},
                         const std::vector<std::pair<std::string, std::string>>& headers = {});
  // Writes raw bytes (for pipelining and malformed-request tests).
  Status WriteRaw(std::string_view bytes);
  // Reads one response (after WriteRaw); `head_request` when it answers a HEAD.
  Result<TestReply> ReadReply(bool head_request = false);
  // Reads and discards at least `n` raw bytes (for tests that leave in the middle of a response).
  Status DiscardBytes(size_t n);
  // Reads and discards everything until the server closes the connection; returns the byte
  // count (for responses too large to hold, e.g. memory measurements).
  Result<uint64_t> DiscardUntilClosed();
  // True when the server has closed the connection (reads EOF within a short wait).
  bool PeerClosed();

 private:
  struct Impl;
  explicit TestHttpClient(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// One request on a fresh connection.
Result<TestReply> HttpRequestOnce(const std::string& host, uint16_t port, std::string_view method,
                                  std::string_view target, std::string_view body = {},
                                  const std::vector<std::pair<std::string, std::string>>& headers = {});

// gzip-compresses `data` (one member) with libdeflate.
std::string GzipCompress(std::string_view data, int level = 6);

}  // namespace gnomon::server::http
