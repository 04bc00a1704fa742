// HttpServer: HTTP/1.1 over Boost.Beast/Asio. Accepts connections on one address, reads requests
// with keep-alive and pipelining, inflates gzip bodies, and hands each request to a Router on a
// worker pool.
//
// Threading: the sockets are driven by `io_threads` threads running one io_context (each
// connection on its own strand). Handlers run on a separate pool of `worker_threads`, because a
// write handler blocks in Engine::Write until the WAL's group-commit fsync: were handlers run on the
// I/O threads, a few writers waiting for the disk would stall every other connection (pings,
// metrics, reads of the next request). The worker pool is sized for concurrent writers
// (default max(4, 2 x cores)) so that many of them can share one group-commit fsync.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "src/base/status.h"
#include "src/server/http/http_stats.h"
#include "src/server/http/router.h"

namespace gnomon::server::http {

struct ServerOptions {
  std::string host = "127.0.0.1";  // name or literal; "0.0.0.0" / "::" for all interfaces
  uint16_t port = 4000;            // 0: the OS picks a free port (see HttpServer::port())
  int io_threads = 0;              // 0: hardware concurrency
  int worker_threads = 0;          // 0: max(4, 2 x hardware concurrency)
  // Largest request body, as received and again after gzip decompression; larger ones get 413.
  size_t max_body_bytes = 64ull << 20;
  size_t max_header_bytes = 64 << 10;
  // Open connections, in all and from one client address; past either, a new connection gets a
  // 503 (plain HTTP) and is closed at once. 0 for max_connections: half the process's file
  // descriptor limit (the rest stays for the engine's files); 0 per client: no limit.
  size_t max_connections = 0;
  size_t max_connections_per_client = 0;
  // How long a keep-alive connection may sit between requests.
  std::chrono::milliseconds idle_timeout = std::chrono::seconds(300);
  // How long receiving one request (head to last body byte), or sending one response, may take.
  std::chrono::milliseconds io_timeout = std::chrono::seconds(120);
  // HTTPS: a PEM certificate chain and its PEM private key (both or neither). Every connection
  // then starts with a TLS handshake (TLS 1.2 or newer); plain HTTP is refused.
  std::string tls_cert_file;
  std::string tls_key_file;
  // Added to every response (e.g. X-Influxdb-Version).
  std::vector<std::pair<std::string, std::string>> default_headers;
};

class HttpServer {
 public:
  // `router` and `stats` must outlive the server.
  HttpServer(ServerOptions options, const Router* router, HttpStats* stats);
  // Shuts down (with no grace period) if still running.
  ~HttpServer();
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  // Binds, listens and starts the threads. IOError when the address cannot be bound, or the TLS
  // certificate or key cannot be loaded.
  Status Start();
  // The bound port (useful with port 0). REQUIRES: Start() succeeded.
  uint16_t port() const;
  // "host:port" as bound.
  std::string address() const;
  // True when the bound address is a loopback one (127.0.0.0/8, ::1): only this machine can connect.
  bool loopback_only() const;
  bool tls() const;

  // Graceful shutdown: stops accepting, closes idle keep-alive connections, lets every request
  // whose head has arrived run to completion and get its response (sent with
  // "Connection: close"; a streamed body already under way runs to its end, then the connection
  // closes), then stops the threads. Connections still busy after `grace` are cut: a streaming
  // producer's next (or pending) ChunkSink::Write fails, so its worker can finish.
  // Idempotent; blocks until the threads have stopped.
  void Shutdown(std::chrono::milliseconds grace = std::chrono::seconds(30));

  // Internal state shared with the connections (server_core.h); not part of the API.
  struct Core;

 private:
  std::shared_ptr<Core> core_;
};

}  // namespace gnomon::server::http
