// SessionStream: a connection's byte stream, plain TCP or TLS over it (internal to server/http).
// HttpSession reads and writes through it with Beast's and Asio's composed operations, which see
// one AsyncStream either way; timeouts stay on the TCP layer (beast::tcp_stream).
//
// Threading: as the streams it wraps — all operations on the connection's strand, at most one
// read and one write in flight.
#pragma once

#include <boost/asio/async_result.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/asio/ssl/stream.hpp>
#include <boost/beast/core/tcp_stream.hpp>

#include <optional>
#include <utility>

namespace gnomon::server::http {

class SessionStream {
 public:
  using executor_type = boost::beast::tcp_stream::executor_type;
  using ErrorCode = boost::beast::error_code;

  // `tls`: the server's TLS context (outlives the stream), or null for plain HTTP.
  SessionStream(boost::asio::ip::tcp::socket socket, boost::asio::ssl::context* tls)
      : tcp_(std::move(socket)) {
    if (tls != nullptr) tls_.emplace(tcp_, *tls);
  }
  SessionStream(const SessionStream&) = delete;
  SessionStream& operator=(const SessionStream&) = delete;

  executor_type get_executor() { return tcp_.get_executor(); }
  boost::asio::ip::tcp::socket& socket() { return tcp_.socket(); }
  template <typename Duration>
  void expires_after(Duration d) { tcp_.expires_after(d); }
  void expires_never() { tcp_.expires_never(); }

  bool is_tls() const { return tls_.has_value(); }
  // The server side of the TLS handshake. REQUIRES: is_tls().
  template <typename Handler>
  void async_handshake(Handler&& handler) {
    tls_->async_handshake(boost::asio::ssl::stream_base::server, std::forward<Handler>(handler));
  }

  template <typename MutableBuffers, typename Token>
  auto async_read_some(const MutableBuffers& buffers, Token&& token) {
    return boost::asio::async_initiate<Token, void(ErrorCode, std::size_t)>(
        [this](auto handler, const MutableBuffers& b) {
          if (tls_) {
            tls_->async_read_some(b, std::move(handler));
          } else {
            tcp_.async_read_some(b, std::move(handler));
          }
        },
        token, buffers);
  }

  template <typename ConstBuffers, typename Token>
  auto async_write_some(const ConstBuffers& buffers, Token&& token) {
    return boost::asio::async_initiate<Token, void(ErrorCode, std::size_t)>(
        [this](auto handler, const ConstBuffers& b) {
          if (tls_) {
            tls_->async_write_some(b, std::move(handler));
          } else {
            tcp_.async_write_some(b, std::move(handler));
          }
        },
        token, buffers);
  }

 private:
  boost::beast::tcp_stream tcp_;  // before tls_, which refers to it
  std::optional<boost::asio::ssl::stream<boost::beast::tcp_stream&>> tls_;
};

}  // namespace gnomon::server::http
