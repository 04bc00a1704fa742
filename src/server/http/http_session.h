// HttpSession: one client connection (internal to server/http). Reads a request, runs its handler
// on the worker pool, writes the response, and loops while the connection stays keep-alive.
//
// Threading: all socket work happens on the connection's strand, streamed bodies included. The
// handler (and a streaming producer after it) runs on a worker while no socket operation is
// pending: the next request is read only once the response is complete, and during handling the
// strand only ever runs OnServerStop (which leaves a busy connection alone) and the sends that the
// producer asks for. So the request/response members are never touched by two threads at once.
// A producer's ChunkSink::Write does not touch the socket itself: it posts the send to the strand
// and later waits for its completion (http_session_stream.cc). Sends thus keep the stream's
// io_timeout and are cancelled with the connection, and Cut() can wake a producer whose send will
// never end.
#pragma once

#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http/empty_body.hpp>
#include <boost/beast/http/message.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/serializer.hpp>
#include <boost/beast/http/string_body.hpp>

#include <array>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>

#include "src/server/http/gzip_decoder.h"
#include "src/server/http/http_message.h"
#include "src/server/http/server_core.h"
#include "src/server/http/session_stream.h"

namespace gnomon::server::http {

class HttpSession : public std::enable_shared_from_this<HttpSession> {
 public:
  HttpSession(boost::asio::ip::tcp::socket socket, HttpServer::Core* core);
  ~HttpSession();

  // Starts reading the first request. REQUIRES: registered with the core; runs on the strand.
  void Start();
  // The connection's strand.
  SessionStream::executor_type get_executor() { return stream_.get_executor(); }
  // Shutdown has begun: close now if idle between requests, else after the current response.
  // Runs on the session's strand.
  void OnServerStop();
  // The shutdown grace period is over and the server is about to stop its threads: a producer
  // waiting for a send is woken with an error, and later sends fail at once, so that the worker
  // running it can finish. Thread-safe.
  void Cut();

 private:
  enum class State { kIdle, kReading, kHandling, kWriting, kClosing };
  // How a streamed answer ended: never started (the Response goes out buffered), complete (the
  // connection may serve the next request), or cut (the connection must close).
  enum class StreamEnd { kNotStarted, kComplete, kCut };
  class StreamSink;  // ChunkSink over this connection (http_session_stream.cc)
  using BeastError = boost::beast::error_code;

  void OnHandshake(BeastError ec);
  void ReadHeader();
  void OnHeader(BeastError ec);
  void ReadBody();
  // Reads a Content-Length body straight into body_ (see body_ below).
  void ReadBodyDirect(size_t length);
  void OnBody(BeastError ec);
  void Dispatch();
  void RunHandler();  // worker thread
  // Worker thread: runs `producer` over handler_response_ and sends what it writes.
  StreamEnd RunStream(const StreamProducer& producer);
  // Worker thread: starts sending stream_next_ (after the head when `with_head`) on the strand.
  // REQUIRES: no send in flight; no call after a send failed.
  Status PostSend(bool with_head);
  // Worker thread: waits for the send in flight and returns its outcome.
  Status AwaitSend();
  void StartStreamSend(bool with_head);  // strand
  void OnStreamSent(BeastError ec);      // strand
  void AfterStream(StreamEnd end);       // strand: the next request, or close
  void Reply(bool close_after);
  void OnWrite(bool close_after, BeastError ec, size_t bytes);
  // Answers without a handler (413, 400 bad gzip, 415), then closes the connection.
  void Reject(int status, std::string_view message);
  // After an early reject: stop sending, discard what the client still sends, then close, so that
  // the client reads our answer instead of a connection reset.
  void DrainAndClose();
  void Close();
  void RecycleBuffers();

  SessionStream stream_;  // plain TCP, or TLS when the server has a certificate
  HttpServer::Core* core_;
  boost::beast::flat_buffer buffer_;
  std::optional<boost::beast::http::request_parser<boost::beast::http::string_body>> parser_;
  boost::beast::http::request<boost::beast::http::string_body> spare_;  // recycled for capacity
  boost::beast::http::response<boost::beast::http::empty_body> continue_;
  boost::beast::http::response<boost::beast::http::string_body> response_;
  GzipDecoder gzip_;
  // A body with a Content-Length is read here, in one buffer sized from the header, instead of
  // through the parser (which reads at most the flat buffer's free space, often 512 bytes, per
  // socket read, and copies again into its string body). Kept across requests for its capacity;
  // its size() only grows, the request's body is its first body_length_ bytes.
  std::string body_;
  size_t body_length_ = 0;
  bool direct_body_ = false;  // this request's body is in body_, not in the parser's message
  Request request_;
  Response handler_response_;
  std::string_view route_;
  State state_ = State::kIdle;
  bool stop_requested_ = false;
  bool head_request_ = false;
  bool http10_ = false;  // the request is HTTP/1.0: no chunked encoding
  std::array<char, 16 << 10> drain_buffer_;
  size_t drained_bytes_ = 0;

  // Streaming. The worker and the strand hand each send back and forth under stream_mu_; the
  // fields below it belong to the strand while a send is in flight and to the worker otherwise,
  // except stream_next_, which is always the worker's.
  std::mutex stream_mu_;
  std::condition_variable stream_cv_;
  bool stream_send_done_ = false;  // GUARDED_BY(stream_mu_)
  BeastError stream_send_error_;   // GUARDED_BY(stream_mu_)
  bool cut_ = false;               // GUARDED_BY(stream_mu_); never reset
  std::string stream_out_;         // framed bytes of the send in flight
  std::string stream_next_;        // the worker frames the next send here meanwhile
  boost::beast::http::response<boost::beast::http::empty_body> stream_head_;
  std::optional<boost::beast::http::response_serializer<boost::beast::http::empty_body>>
      stream_serializer_;
  bool stream_close_after_ = false;  // decided on the strand when the head goes out
};

}  // namespace gnomon::server::http
