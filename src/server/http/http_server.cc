#include "src/server/http/http_server.h"

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/write.hpp>

#include <sys/resource.h>

#include <algorithm>
#include <future>
#include <thread>

#include "src/base/check.h"
#include "src/base/logging.h"
#include "src/server/http/http_session.h"
#include "src/server/http/server_core.h"

namespace gnomon::server::http {
namespace net = boost::asio;
using tcp = net::ip::tcp;

namespace {

int DefaultWorkers() {
  int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  return std::max(4, 2 * cores);
}

// Handlers hold a raw Core*: the Core outlives every handler that runs (the I/O threads are joined
// before it is destroyed), and owning pointers would form a cycle through the io_context's queue.
void DoAccept(HttpServer::Core* core);

// Closes a connection past a limit at once, so that it holds no session: a plain-HTTP client
// that has not sent its request yet still reads why (a TLS one sees the connection close).
void Refuse(HttpServer::Core* core, tcp::socket* socket, const std::string& why) {
  core->stats->ConnectionRefused();
  boost::system::error_code ec;
  if (!core->tls.has_value()) {
    const std::string body = "{\"error\":\"" + why + "\"}";
    const std::string answer = "HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nRetry-After: 1\r\n"
                               "Content-Type: application/json\r\nContent-Length: " +
                               std::to_string(body.size()) + "\r\n\r\n" + body;
    socket->non_blocking(true, ec);  // a new socket's buffer takes it; never wait for a client here
    socket->write_some(net::buffer(answer), ec);
  }
  socket->shutdown(tcp::socket::shutdown_send, ec);
  socket->close(ec);
}

// Half the process's file-descriptor limit: the engine's WAL, segments and registries keep the rest.
size_t DefaultMaxConnections() {
  rlimit limit{};
  if (getrlimit(RLIMIT_NOFILE, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return 65536;
  return std::max<size_t>(16, static_cast<size_t>(limit.rlim_cur) / 2);
}

void OnAccept(HttpServer::Core* core, boost::system::error_code ec,
              tcp::socket socket) {
  if (ec == net::error::operation_aborted || !core->acceptor->is_open()) return;
  if (ec) {
    // EMFILE and friends: back off briefly instead of spinning on a failing accept.
    GNOMON_LOG_WARN("[http] accept failed: {}", ec.message());
    auto timer = std::make_shared<net::steady_timer>(*core->accept_strand,
                                                     std::chrono::milliseconds(50));
    timer->async_wait([core, timer](boost::system::error_code) { DoAccept(core); });
    return;
  }
  boost::system::error_code peer_ec;
  auto peer = socket.remote_endpoint(peer_ec);
  std::string client = peer_ec ? std::string() : peer.address().to_string();
  if (std::string why = core->RefusalFor(client); !why.empty()) {
    Refuse(core, &socket, why);
    return DoAccept(core);
  }
  auto session = std::make_shared<HttpSession>(std::move(socket), core);
  if (core->Register(session, client)) {
    net::post(session->get_executor(), [session] { session->Start(); });
  }
  DoAccept(core);
}

void DoAccept(HttpServer::Core* core) {
  if (!core->acceptor->is_open()) return;
  // Each connection gets its own strand; the accept handler runs on the acceptor's.
  core->acceptor->async_accept(
      net::make_strand(core->ioc),
      net::bind_executor(*core->accept_strand,
                         [core](boost::system::error_code ec, tcp::socket socket) {
                           OnAccept(core, ec, std::move(socket));
                         }));
}

// The TLS context from the options' certificate and key files; nothing when they are not set.
Status LoadTls(HttpServer::Core* core) {
  const ServerOptions& o = core->options;
  if (o.tls_cert_file.empty() && o.tls_key_file.empty()) return Status::OK();
  if (o.tls_cert_file.empty() || o.tls_key_file.empty()) {
    return Status::InvalidArgument("TLS needs both a certificate and a key file");
  }
  net::ssl::context ctx(net::ssl::context::tls_server);
  boost::system::error_code ec;
  ctx.set_options(net::ssl::context::default_workarounds | net::ssl::context::no_sslv2 |
                      net::ssl::context::no_sslv3 | net::ssl::context::no_tlsv1 |
                      net::ssl::context::no_tlsv1_1 | net::ssl::context::single_dh_use,
                  ec);
  if (ctx.use_certificate_chain_file(o.tls_cert_file, ec)) {
    return Status::IOError("TLS certificate " + o.tls_cert_file + ": " + ec.message());
  }
  if (ctx.use_private_key_file(o.tls_key_file, net::ssl::context::pem, ec)) {
    return Status::IOError("TLS key " + o.tls_key_file + ": " + ec.message());
  }
  if (SSL_CTX_check_private_key(ctx.native_handle()) != 1) {
    return Status::InvalidArgument("TLS key " + o.tls_key_file + " does not match certificate " +
                                   o.tls_cert_file);
  }
  core->tls.emplace(std::move(ctx));
  return Status::OK();
}

}  // namespace

std::string HttpServer::Core::RefusalFor(const std::string& client) {
  std::lock_guard<std::mutex> lock(mu);
  if (sessions.size() >= max_connections) {
    return "too many connections: " + std::to_string(sessions.size()) + " open (max-connections " +
           std::to_string(max_connections) + ")";
  }
  const size_t per_client = options.max_connections_per_client;
  if (per_client == 0) return "";
  auto it = sessions_per_client.find(client);
  if (it != sessions_per_client.end() && it->second >= per_client) {
    return "too many connections from " + client + ": " + std::to_string(it->second) +
           " open (max-connections-per-client " + std::to_string(per_client) + ")";
  }
  return "";
}

bool HttpServer::Core::Register(const std::shared_ptr<HttpSession>& session, const std::string& client) {
  std::lock_guard<std::mutex> lock(mu);
  if (draining_flag) return false;
  sessions.emplace(session.get(), SessionEntry{session, client});
  ++sessions_per_client[client];
  return true;
}

void HttpServer::Core::Unregister(HttpSession* session) {
  std::lock_guard<std::mutex> lock(mu);
  auto it = sessions.find(session);
  if (it == sessions.end()) return;
  auto per_client = sessions_per_client.find(it->second.client);
  if (per_client != sessions_per_client.end() && --per_client->second == 0) sessions_per_client.erase(per_client);
  sessions.erase(it);
  if (sessions.empty()) sessions_gone.notify_all();
}

HttpServer::HttpServer(ServerOptions options, const Router* router, HttpStats* stats) {
  int workers = options.worker_threads > 0 ? options.worker_threads : DefaultWorkers();
  core_ = std::make_shared<Core>(std::move(options), router, stats, workers);
}

HttpServer::~HttpServer() { Shutdown(std::chrono::milliseconds(0)); }

Status HttpServer::Start() {
  Core& core = *core_;
  GNOMON_CHECK_MSG(!core.acceptor.has_value(), "HttpServer::Start called twice");
  GNOMON_RETURN_IF_ERROR(LoadTls(&core));
  core.max_connections = core.options.max_connections > 0 ? core.options.max_connections : DefaultMaxConnections();
  boost::system::error_code ec;
  tcp::resolver resolver(core.ioc);
  auto endpoints = resolver.resolve(core.options.host, std::to_string(core.options.port),
                                    tcp::resolver::passive | tcp::resolver::numeric_service, ec);
  std::string where = core.options.host + ":" + std::to_string(core.options.port);
  if (ec || endpoints.empty()) {
    return Status::IOError("resolve " + where + ": " + (ec ? ec.message() : "no address"));
  }
  tcp::endpoint endpoint = endpoints.begin()->endpoint();
  core.accept_strand.emplace(net::make_strand(core.ioc));
  core.acceptor.emplace(*core.accept_strand);
  auto& acceptor = *core.acceptor;
  if (acceptor.open(endpoint.protocol(), ec) ||
      acceptor.set_option(net::socket_base::reuse_address(true), ec) ||
      acceptor.bind(endpoint, ec) || acceptor.listen(net::socket_base::max_listen_connections, ec)) {
    acceptor.close(ec);
    core.acceptor.reset();
    return Status::IOError("listen on " + where + ": " + ec.message());
  }
  core.bound = acceptor.local_endpoint(ec);
  core.work.emplace(net::make_work_guard(core.ioc));
  DoAccept(core_.get());
  int io_threads = core.options.io_threads > 0
                       ? core.options.io_threads
                       : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  for (int i = 0; i < io_threads; ++i) {
    core.io_threads.emplace_back([&core] {
      // An exception escaping a handler is a bug; report it rather than let the thread die.
      for (;;) {
        try {
          core.ioc.run();
          return;
        } catch (const std::exception& e) {
          GNOMON_LOG_ERROR("[http] I/O thread caught: {}", e.what());
        }
      }
    });
  }
  return Status::OK();
}

uint16_t HttpServer::port() const { return core_->bound.port(); }

std::string HttpServer::address() const {
  auto addr = core_->bound.address();
  std::string host = addr.is_v6() ? "[" + addr.to_string() + "]" : addr.to_string();
  return host + ":" + std::to_string(core_->bound.port());
}

bool HttpServer::tls() const { return core_->tls.has_value(); }

bool HttpServer::loopback_only() const { return core_->bound.address().is_loopback(); }

void HttpServer::Shutdown(std::chrono::milliseconds grace) {
  Core& core = *core_;
  std::vector<std::shared_ptr<HttpSession>> live;
  {
    std::lock_guard<std::mutex> lock(core.mu);
    if (core.stopped || !core.acceptor.has_value()) return;
    core.stopped = true;
    core.draining_flag = true;
    for (auto& [ptr, entry] : core.sessions) {
      if (auto s = entry.session.lock()) live.push_back(std::move(s));
    }
  }
  // Stop accepting: closing on the acceptor's strand cancels the pending accept.
  std::promise<void> closed;
  net::post(*core.accept_strand, [&core, &closed] {
    boost::system::error_code ec;
    core.acceptor->close(ec);
    closed.set_value();
  });
  closed.get_future().wait();
  for (auto& session : live) {
    net::post(session->get_executor(), [session] { session->OnServerStop(); });
  }
  live.clear();  // sessions must be free to end as soon as they finish
  {
    std::unique_lock<std::mutex> lock(core.mu);
    core.sessions_gone.wait_for(lock, grace, [&] { return core.sessions.empty(); });
    if (!core.sessions.empty()) {
      GNOMON_LOG_WARN("[http] shutdown grace period over; cutting {} connection(s)",
                      core.sessions.size());
      for (auto& [ptr, entry] : core.sessions) {
        if (auto s = entry.session.lock()) live.push_back(std::move(s));
      }
    }
  }
  // A streaming producer may be waiting for a send that the stopped I/O threads would never
  // finish; woken with an error, it returns and its worker becomes joinable.
  for (auto& session : live) session->Cut();
  live.clear();
  core.work.reset();
  core.ioc.stop();
  for (auto& t : core.io_threads) t.join();
  core.io_threads.clear();
  core.worker_pool.join();
}

}  // namespace gnomon::server::http
