#include "src/server/http/session_stream.h"

#include <boost/asio/ssl/stream.hpp>

namespace gnomon::server::http {

SessionStream::SessionStream(boost::asio::ip::tcp::socket socket, boost::asio::ssl::context* tls)
    : tcp_(std::move(socket)) {
  if (tls != nullptr) tls_ = std::make_unique<boost::asio::ssl::stream<boost::beast::tcp_stream&>>(tcp_, *tls);
}

SessionStream::~SessionStream() = default;

void SessionStream::Handshake(HandshakeHandler handler) {
  tls_->async_handshake(boost::asio::ssl::stream_base::server, std::move(handler));
}

void SessionStream::ReadSome(BufferList<boost::asio::mutable_buffer> buffers, IoHandler handler) {
  if (tls_) {
    tls_->async_read_some(buffers, std::move(handler));
  } else {
    tcp_.async_read_some(buffers, std::move(handler));
  }
}

void SessionStream::WriteSome(BufferList<boost::asio::const_buffer> buffers, IoHandler handler) {
  if (tls_) {
    tls_->async_write_some(buffers, std::move(handler));
  } else {
    tcp_.async_write_some(buffers, std::move(handler));
  }
}

}  // namespace gnomon::server::http
