// HttpSession: one client connection (internal to server/http). Reads a request, runs its handler
// on the worker pool, writes the response, and loops while the connection stays keep-alive.
// All socket work happens on the connection's strand; the handler runs while no socket operation
// is pending, so the request/response members are never touched by two threads at once.
#pragma once

#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http/empty_body.hpp>
#include <boost/beast/http/message.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/string_body.hpp>

#include <array>
#include <memory>
#include <optional>

#include "src/server/http/gzip_decoder.h"
#include "src/server/http/http_message.h"
#include "src/server/http/server_core.h"

namespace gnomon::server::http {

class HttpSession : public std::enable_shared_from_this<HttpSession> {
 public:
  HttpSession(boost::asio::ip::tcp::socket socket, HttpServer::Core* core);
  ~HttpSession();

  // Starts reading the first request. REQUIRES: registered with the core; runs on the strand.
  void Start();
  // The connection's strand.
  boost::beast::tcp_stream::executor_type get_executor() { return stream_.get_executor(); }
  // Shutdown has begun: close now if idle between requests, else after the current response.
  // Runs on the session's strand.
  void OnServerStop();

 private:
  enum class State { kIdle, kReading, kHandling, kWriting, kClosing };
  using BeastError = boost::beast::error_code;

  void ReadHeader();
  void OnHeader(BeastError ec);
  void ReadBody();
  void OnBody(BeastError ec);
  void Dispatch();
  void RunHandler();  // worker thread
  void Reply(bool close_after);
  void OnWrite(bool close_after, BeastError ec, size_t bytes);
  // Answers without a handler (413, 400 bad gzip, 415), then closes the connection.
  void Reject(int status, std::string_view message);
  // After an early reject: stop sending, discard what the client still sends, then close, so that
  // the client reads our answer instead of a connection reset.
  void DrainAndClose();
  void Close();
  void RecycleBuffers();

  boost::beast::tcp_stream stream_;
  HttpServer::Core* core_;
  boost::beast::flat_buffer buffer_;
  std::optional<boost::beast::http::request_parser<boost::beast::http::string_body>> parser_;
  boost::beast::http::request<boost::beast::http::string_body> spare_;  // recycled for capacity
  boost::beast::http::response<boost::beast::http::empty_body> continue_;
  boost::beast::http::response<boost::beast::http::string_body> response_;
  GzipDecoder gzip_;
  Request request_;
  Response handler_response_;
  std::string_view route_;
  State state_ = State::kIdle;
  bool stop_requested_ = false;
  bool head_request_ = false;
  std::array<char, 16 << 10> drain_buffer_;
  size_t drained_bytes_ = 0;
};

}  // namespace gnomon::server::http
