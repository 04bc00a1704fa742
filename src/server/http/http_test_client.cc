#include "src/server/http/http_test_client.h"

#include <libdeflate.h>

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http.hpp>

#include <algorithm>
#include <cctype>
#include <chrono>

namespace gnomon::server::http {
namespace net = boost::asio;
namespace beast = boost::beast;
namespace bhttp = boost::beast::http;
using tcp = net::ip::tcp;

struct TestHttpClient::Impl {
  net::io_context ioc;
  beast::tcp_stream stream{ioc};
  beast::flat_buffer buffer;
};

TestHttpClient::TestHttpClient(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
TestHttpClient::~TestHttpClient() {
  beast::error_code ec;
  impl_->stream.socket().shutdown(tcp::socket::shutdown_both, ec);
}

Result<std::unique_ptr<TestHttpClient>> TestHttpClient::Connect(const std::string& host,
                                                                uint16_t port, const std::string& source) {
  auto impl = std::make_unique<Impl>();
  beast::error_code ec;
  tcp::resolver resolver(impl->ioc);
  auto endpoints = resolver.resolve(host, std::to_string(port), ec);
  if (ec) return Status::IOError("resolve " + host + ": " + ec.message());
  impl->stream.expires_after(std::chrono::seconds(30));
  if (!source.empty()) {
    auto& socket = impl->stream.socket();
    auto local = tcp::endpoint(net::ip::make_address(source, ec), 0);
    if (!ec) socket.open(local.protocol(), ec);
    if (!ec) socket.bind(local, ec);
    if (ec) return Status::IOError("bind to " + source + ": " + ec.message());
    socket.connect(endpoints.begin()->endpoint(), ec);
  } else {
    impl->stream.connect(endpoints, ec);
  }
  if (ec) return Status::IOError("connect " + host + ":" + std::to_string(port) + ": " + ec.message());
  impl->stream.socket().set_option(tcp::no_delay(true), ec);
  return std::unique_ptr<TestHttpClient>(new TestHttpClient(std::move(impl)));
}

Status TestHttpClient::WriteRaw(std::string_view bytes) {
  beast::error_code ec;
  impl_->stream.expires_after(std::chrono::seconds(60));
  net::write(impl_->stream, net::buffer(bytes.data(), bytes.size()), ec);
  if (ec) return Status::IOError("write: " + ec.message());
  return Status::OK();
}

Result<TestReply> TestHttpClient::ReadReply(bool head_request) {
  bhttp::response_parser<bhttp::string_body> parser;
  parser.body_limit(1ull << 30);
  parser.skip(head_request);
  beast::error_code ec;
  impl_->stream.expires_after(std::chrono::seconds(120));
  bhttp::read(impl_->stream, impl_->buffer, parser, ec);
  if (ec) return Status::IOError("read response: " + ec.message());
  auto& msg = parser.get();
  TestReply reply;
  reply.status = static_cast<int>(msg.result_int());
  reply.body = std::move(msg.body());
  reply.keep_alive = msg.keep_alive();
  for (const auto& field : msg) {
    std::string name(field.name_string());
    std::transform(name.begin(), name.end(), name.begin(),
                   [](unsigned char c) { return std::tolower(c); });
    reply.headers.emplace(std::move(name), std::string(field.value()));
  }
  return reply;
}

Result<TestReply> TestHttpClient::Send(std::string_view method, std::string_view target,
                                       std::string_view body,
                                       const std::vector<std::pair<std::string, std::string>>& headers) {
  bhttp::request<bhttp::string_body> req;
  req.method_string(beast::string_view(method.data(), method.size()));
  req.target(beast::string_view(target.data(), target.size()));
  req.version(11);
  req.set(bhttp::field::host, "localhost");
  for (const auto& [name, value] : headers) req.set(name, value);
  req.body() = std::string(body);
  if (!body.empty() || method == "POST" || method == "PUT") req.prepare_payload();
  beast::error_code ec;
  impl_->stream.expires_after(std::chrono::seconds(60));
  bhttp::write(impl_->stream, req, ec);
  if (ec) return Status::IOError("write request: " + ec.message());
  return ReadReply(method == "HEAD");
}

Status TestHttpClient::DiscardBytes(size_t n) {
  size_t have = std::min(n, impl_->buffer.size());
  impl_->buffer.consume(have);
  n -= have;
  char scratch[16 << 10];
  beast::error_code ec;
  impl_->stream.expires_after(std::chrono::seconds(60));
  while (n > 0) {
    size_t got = impl_->stream.read_some(net::buffer(scratch), ec);
    if (ec) return Status::IOError("read: " + ec.message());
    n -= std::min(n, got);
  }
  return Status::OK();
}

Result<uint64_t> TestHttpClient::DiscardUntilClosed() {
  uint64_t total = impl_->buffer.size();
  impl_->buffer.consume(impl_->buffer.size());
  char scratch[64 << 10];
  beast::error_code ec;
  for (;;) {
    impl_->stream.expires_after(std::chrono::seconds(120));
    total += impl_->stream.read_some(net::buffer(scratch), ec);
    if (ec == net::error::eof) return total;
    if (ec) return Status::IOError("read: " + ec.message());
  }
}

bool TestHttpClient::PeerClosed() {
  char byte;
  beast::error_code ec;
  impl_->stream.expires_after(std::chrono::seconds(10));
  impl_->stream.read_some(net::buffer(&byte, 1), ec);
  return ec == net::error::eof || ec == net::error::connection_reset;
}

Result<TestReply> HttpRequestOnce(const std::string& host, uint16_t port, std::string_view method,
                                  std::string_view target, std::string_view body,
                                  const std::vector<std::pair<std::string, std::string>>& headers) {
  auto client = TestHttpClient::Connect(host, port);
  if (!client.ok()) return client.status();
  return (*client)->Send(method, target, body, headers);
}

std::string GzipCompress(std::string_view data, int level) {
  libdeflate_compressor* c = libdeflate_alloc_compressor(level);
  std::string out(libdeflate_gzip_compress_bound(c, data.size()), '\0');
  size_t n = libdeflate_gzip_compress(c, data.data(), data.size(), out.data(), out.size());
  libdeflate_free_compressor(c);
  out.resize(n);
  return out;
}

}  // namespace gnomon::server::http
