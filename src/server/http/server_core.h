// ServerCore: the state an HttpServer shares with its connections (internal to server/http).
#pragma once

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/thread_pool.hpp>

#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "src/server/http/http_server.h"

namespace gnomon::server::http {

class HttpSession;

struct HttpServer::Core {
  Core(ServerOptions opts, const Router* r, HttpStats* s, int workers)
      : options(std::move(opts)), router(r), stats(s), worker_pool(workers) {}

  // Why a new connection from `client` must be refused (past a connection limit), or empty.
  std::string RefusalFor(const std::string& client);
  // Adds a new connection from `client` (an address); false once shutdown began (the caller then
  // drops it).
  bool Register(const std::shared_ptr<HttpSession>& session, const std::string& client);
  void Unregister(HttpSession* session);
  bool draining() {
    std::lock_guard<std::mutex> lock(mu);
    return draining_flag;
  }

  const ServerOptions options;
  const Router* const router;
  HttpStats* const stats;

  std::mutex mu;
  std::condition_variable sessions_gone;
  bool draining_flag = false;  // GUARDED_BY(mu)
  bool stopped = false;        // GUARDED_BY(mu)
  struct SessionEntry {
    std::weak_ptr<HttpSession> session;
    std::string client;
  };
  std::unordered_map<HttpSession*, SessionEntry> sessions;                 // GUARDED_BY(mu)
  std::unordered_map<std::string, size_t> sessions_per_client;            // GUARDED_BY(mu)
  size_t max_connections = 0;  // resolved by Start (0 in the options: from the fd limit)

  // Declaration order matters for destruction: the worker pool (whose queued tasks own sessions,
  // and sessions own sockets of io_context) goes before io_context, and both before `mu`.
  boost::asio::io_context ioc;
  std::optional<boost::asio::executor_work_guard<boost::asio::io_context::executor_type>> work;
  std::optional<boost::asio::ip::tcp::acceptor> acceptor;
  std::optional<boost::asio::strand<boost::asio::io_context::executor_type>> accept_strand;
  std::optional<boost::asio::ssl::context> tls;  // set by Start() when options carry a certificate
  std::vector<std::thread> io_threads;
  boost::asio::thread_pool worker_pool;
  boost::asio::ip::tcp::endpoint bound;
};

}  // namespace gnomon::server::http
