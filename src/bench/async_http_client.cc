#include "src/bench/async_http_client.h"

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http.hpp>

#include <optional>

#include "src/bench/beast_message.h"

namespace gnomon::bench {

namespace asio = boost::asio;
namespace http = boost::beast::http;
using tcp = asio::ip::tcp;
using ErrorCode = boost::system::error_code;

struct EventLoop::Impl {
  asio::io_context io{1};  // one thread runs it: no locking between handlers
};

EventLoop::EventLoop() : impl_(std::make_unique<Impl>()) {}
EventLoop::~EventLoop() = default;

void EventLoop::Run() {
  impl_->io.run();
  impl_->io.restart();  // a later Run() serves new exchanges
}

struct AsyncHttpClient::Impl {
  Impl(AsyncHttpClient* owner, asio::io_context& io, Url url)
      : owner(owner), socket(io), url(std::move(url)) {
    buffer.reserve(64 << 10);  // see HttpClient: big reads, few recv calls
  }

  void Start() {
    retried = false;
    if (connected) return Write(/*reused=*/true);
    Connect();
  }

  void Connect() {
    ErrorCode ec;
    if (socket.is_open()) socket.close(ec);
    buffer.clear();
    connected = false;
    if (endpoints.empty()) {
      tcp::resolver resolver(socket.get_executor());
      endpoints = resolver.resolve(url.host, url.port, ec);
      if (ec) return Finish(Status::IOError("resolve " + url.host + ":" + url.port + ": " + ec.message()));
    }
    asio::async_connect(socket, endpoints, [this](ErrorCode err, const tcp::endpoint&) {
      if (err) return Finish(Status::IOError("connect " + url.host + ":" + url.port + ": " + err.message()));
      ErrorCode ignored;
      socket.set_option(tcp::no_delay(true), ignored);  // small requests must not wait for Nagle
      connected = true;
      ++owner->connects_;
      Write(/*reused=*/false);
    });
  }

  void Write(bool reused) {
    target = url.base_path + std::string(request.target);
    BuildBeastRequest(url, request, target, &message);
    http::async_write(socket, message, [this, reused](ErrorCode ec, size_t) {
      if (ec) return Failed("send", ec, reused);
      ReadHead(reused);
    });
  }

  void ReadHead(bool reused) {
    ResetAnswerParser(&owner->spare_body_, &parser);
    http::async_read_header(socket, buffer, *parser, [this, reused](ErrorCode ec, size_t) {
      if (ec) return Failed("read answer to", ec, reused);
      http::async_read(socket, buffer, *parser, [this](ErrorCode err, size_t) {
        if (err) return Failed("read body of answer to", err, /*may_retry=*/false);
        const bool keep_alive = parser->get().keep_alive();
        TakeAnswer(&*parser, &response);
        if (!keep_alive) {
          ErrorCode ignored;
          socket.close(ignored);
          connected = false;
        }
        Finish(Status::OK());
      });
    });
  }

  // A failed step. A reused connection that fails before any byte of the answer arrived may
  // have been closed by the server while idle: reconnect and send once more.
  void Failed(const char* what, ErrorCode ec, bool may_retry) {
    connected = false;
    if (may_retry && !retried) {
      retried = true;
      return Connect();
    }
    Finish(Status::IOError(std::string(what) + " " + std::string(request.method) + " " + target + ": " +
                           ec.message()));
  }

  void Finish(Status status) {
    if (!status.ok()) {
      ErrorCode ignored;
      socket.close(ignored);
      connected = false;
    }
    Done d = std::move(done);  // the callback may start the next exchange
    done = nullptr;
    d(std::move(status), &response);
  }

  AsyncHttpClient* owner;
  tcp::socket socket;
  Url url;
  tcp::resolver::results_type endpoints;
  boost::beast::flat_buffer buffer;
  bool connected = false;
  bool retried = false;
  HttpRequest request;
  Done done;
  std::string target;
  BeastRequest message;
  std::optional<BeastResponseParser> parser;
  HttpResponse response;
};

AsyncHttpClient::AsyncHttpClient(EventLoop* loop, Url url)
    : impl_(std::make_unique<Impl>(this, loop->impl_->io, std::move(url))) {}

AsyncHttpClient::~AsyncHttpClient() {
  ErrorCode ignored;
  if (impl_->socket.is_open()) {
    impl_->socket.shutdown(tcp::socket::shutdown_both, ignored);
    impl_->socket.close(ignored);
  }
}

void AsyncHttpClient::Send(const HttpRequest& request, Done done) {
  impl_->request = request;
  impl_->done = std::move(done);
  impl_->Start();
}

}  // namespace gnomon::bench
