#include "src/bench/http_client.h"

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

struct HttpClient::Impl {
  asio::io_context io;
  tcp::socket socket{io};
  boost::beast::flat_buffer buffer;
  bool connected = false;
};

HttpClient::HttpClient(Url url) : url_(std::move(url)), impl_(std::make_unique<Impl>()) {
  // Beast reads as much as the buffer has room for (up to 64 KB a call): with the few KB a
  // response head leaves, a 10 MB answer took ~2,500 recv calls, and the client's CPU is taken
  // from the server it measures when both share the machine.
  impl_->buffer.reserve(64 << 10);
}

HttpClient::~HttpClient() {
  if (impl_->connected) {
    boost::system::error_code ec;
    impl_->socket.shutdown(tcp::socket::shutdown_both, ec);
    impl_->socket.close(ec);
  }
}

Status HttpClient::Connect() {
  boost::system::error_code ec;
  if (impl_->socket.is_open()) impl_->socket.close(ec);
  impl_->buffer.clear();
  impl_->connected = false;
  tcp::resolver resolver(impl_->io);
  auto endpoints = resolver.resolve(url_.host, url_.port, ec);
  if (ec) return Status::IOError("resolve " + url_.host + ":" + url_.port + ": " + ec.message());
  asio::connect(impl_->socket, endpoints, ec);
  if (ec) return Status::IOError("connect " + url_.host + ":" + url_.port + ": " + ec.message());
  impl_->socket.set_option(tcp::no_delay(true), ec);  // small requests must not wait for Nagle
  impl_->connected = true;
  ++connects_;
  return Status::OK();
}

Status HttpClient::SendOnce(const HttpRequest& request, HttpResponse* response,
                            bool* nothing_received) {
  *nothing_received = true;
  std::string target = url_.base_path + std::string(request.target);
  BeastRequest req;
  BuildBeastRequest(url_, request, target, &req);

  boost::system::error_code ec;
  http::write(impl_->socket, req, ec);
  if (ec) return Status::IOError("send " + std::string(request.method) + " " + target + ": " + ec.message());

  std::optional<BeastResponseParser> parser;
  ResetAnswerParser(&spare_body_, &parser);
  http::read_header(impl_->socket, impl_->buffer, *parser, ec);
  if (ec) {
    return Status::IOError("read answer to " + std::string(request.method) + " " + target + ": " +
                           ec.message());
  }
  *nothing_received = false;
  http::read(impl_->socket, impl_->buffer, *parser, ec);
  if (ec) {
    return Status::IOError("read body of answer to " + std::string(request.method) + " " + target +
                           ": " + ec.message());
  }
  const bool keep_alive = parser->get().keep_alive();
  TakeAnswer(&*parser, response);
  if (!keep_alive) {
    impl_->socket.close(ec);
    impl_->connected = false;
  }
  return Status::OK();
}

Result<HttpResponse> HttpClient::Send(const HttpRequest& request) {
  bool reused = impl_->connected;
  if (!reused) GNOMON_RETURN_IF_ERROR(Connect());
  HttpResponse response;
  bool nothing_received = true;
  Status s = SendOnce(request, &response, &nothing_received);
  if (!s.ok() && reused && nothing_received) {
    // The server may have closed an idle keep-alive connection; one fresh attempt.
    GNOMON_RETURN_IF_ERROR(Connect());
    s = SendOnce(request, &response, &nothing_received);
  }
  if (!s.ok()) {
    impl_->connected = false;
    return s;
  }
  return response;
}

Status ExpectSuccess(std::string_view what, const HttpResponse& response) {
  if (response.ok()) return Status::OK();
  constexpr size_t kMaxBody = 2000;
  std::string body = response.body.substr(0, kMaxBody);
  if (response.body.size() > kMaxBody) body += "...";
  return Status::IOError(std::string(what) + ": HTTP " + std::to_string(response.status) + ": " +
                         body);
}

}  // namespace gnomon::bench
