// SessionStream: a connection's byte stream, plain TCP or TLS over it (internal to server/http).
// HttpSession reads and writes through it with Beast's and Asio's composed operations, which see
// one AsyncStream either way; timeouts stay on the TCP layer (beast::tcp_stream).
//
// Its read_some and write_some erase the caller's handler and buffer sequence types before they
// reach the TLS stream (session_stream.cc): every composed operation above would otherwise
// instantiate Asio's SSL state machine for its own handler type, which made http_session.cc
// take 76 s to compile.
//
// Threading: as the streams it wraps — all operations on the connection's strand, at most one
// read and one write in flight.
#pragma once

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/associated_executor.hpp>
#include <boost/asio/async_result.hpp>
#include <boost/asio/buffer.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/beast/core/tcp_stream.hpp>

#include <array>
#include <cstddef>
#include <memory>
#include <utility>

namespace boost::asio::ssl {
template <typename Stream>
class stream;
}  // namespace boost::asio::ssl

namespace gnomon::server::http {

// Up to kMaxBuffers of a buffer sequence, as a sequence of its own (read_some and write_some may
// move fewer bytes than asked, so the rest waits for the next call).
template <typename Buffer>
struct BufferList {
  static constexpr size_t kMaxBuffers = 16;
  std::array<Buffer, kMaxBuffers> buffers;
  size_t count = 0;

  template <typename Sequence>
  static BufferList Of(const Sequence& sequence) {
    BufferList list;
    for (auto it = boost::asio::buffer_sequence_begin(sequence);
         it != boost::asio::buffer_sequence_end(sequence) && list.count < kMaxBuffers; ++it) {
      Buffer b(*it);
      if (b.size() > 0) list.buffers[list.count++] = b;
    }
    return list;
  }
  const Buffer* begin() const { return buffers.data(); }
  const Buffer* end() const { return buffers.data() + count; }
};

// A completion handler with its type erased (Boost 1.81's any_completion_handler cannot be
// posted through basic_stream's executor): called once, on the executor the original handler
// was associated with (the connection's strand).
template <typename... Args>
class ErasedHandler {
 public:
  using executor_type = boost::asio::any_io_executor;

  template <typename Handler>
  ErasedHandler(Handler handler, const executor_type& fallback)
      : executor_(boost::asio::get_associated_executor(handler, fallback)),
        impl_(std::make_unique<Impl<Handler>>(std::move(handler))) {}

  void operator()(Args... args) {
    std::unique_ptr<Base> impl = std::move(impl_);
    impl->Call(args...);
  }
  executor_type get_executor() const noexcept { return executor_; }

 private:
  struct Base {
    virtual ~Base() = default;
    virtual void Call(Args... args) = 0;
  };
  template <typename Handler>
  struct Impl final : Base {
    explicit Impl(Handler h) : handler(std::move(h)) {}
    void Call(Args... args) override { std::move(handler)(args...); }
    Handler handler;
  };

  executor_type executor_;
  std::unique_ptr<Base> impl_;
};

class SessionStream {
 public:
  using executor_type = boost::beast::tcp_stream::executor_type;
  using ErrorCode = boost::beast::error_code;
  using IoHandler = ErasedHandler<ErrorCode, std::size_t>;
  using HandshakeHandler = ErasedHandler<ErrorCode>;

  // `tls`: the server's TLS context (outlives the stream), or null for plain HTTP.
  SessionStream(boost::asio::ip::tcp::socket socket, boost::asio::ssl::context* tls);
  ~SessionStream();
  SessionStream(const SessionStream&) = delete;
  SessionStream& operator=(const SessionStream&) = delete;

  executor_type get_executor() { return tcp_.get_executor(); }
  boost::asio::ip::tcp::socket& socket() { return tcp_.socket(); }
  template <typename Duration>
  void expires_after(Duration d) { tcp_.expires_after(d); }
  void expires_never() { tcp_.expires_never(); }
  bool is_tls() const { return tls_ != nullptr; }

  // The server side of the TLS handshake. REQUIRES: is_tls().
  template <typename Token>
  auto async_handshake(Token&& token) {
    return boost::asio::async_initiate<Token, void(ErrorCode)>(
        [this](auto handler) { Handshake(HandshakeHandler(std::move(handler), get_executor())); }, token);
  }

  template <typename MutableBuffers, typename Token>
  auto async_read_some(const MutableBuffers& buffers, Token&& token) {
    return boost::asio::async_initiate<Token, void(ErrorCode, std::size_t)>(
        [this](auto handler, const MutableBuffers& b) {
          ReadSome(BufferList<boost::asio::mutable_buffer>::Of(b), IoHandler(std::move(handler), get_executor()));
        },
        token, buffers);
  }

  template <typename ConstBuffers, typename Token>
  auto async_write_some(const ConstBuffers& buffers, Token&& token) {
    return boost::asio::async_initiate<Token, void(ErrorCode, std::size_t)>(
        [this](auto handler, const ConstBuffers& b) {
          WriteSome(BufferList<boost::asio::const_buffer>::Of(b), IoHandler(std::move(handler), get_executor()));
        },
        token, buffers);
  }

 private:
  void Handshake(HandshakeHandler handler);
  void ReadSome(BufferList<boost::asio::mutable_buffer> buffers, IoHandler handler);
  void WriteSome(BufferList<boost::asio::const_buffer> buffers, IoHandler handler);

  boost::beast::tcp_stream tcp_;  // before tls_, which refers to it
  std::unique_ptr<boost::asio::ssl::stream<boost::beast::tcp_stream&>> tls_;
};

}  // namespace gnomon::server::http
