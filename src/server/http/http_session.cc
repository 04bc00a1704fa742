#include "src/server/http/http_session.h"

#include <boost/asio/buffer.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/read.hpp>
#include <boost/beast/core/string.hpp>
#include <boost/beast/http/error.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/write.hpp>

#include <algorithm>
#include <cstring>
#include <exception>

#include "src/base/logging.h"
#include "src/base/time_util.h"
#include "src/server/http/beast_request.h"

namespace gnomon::server::http {
namespace net = boost::asio;
namespace beast = boost::beast;
namespace bhttp = boost::beast::http;
using tcp = net::ip::tcp;

namespace {

// Buffers above this size are released after the request instead of kept for the next one.
constexpr size_t kKeepBufferBytes = 16ull << 20;
// An early reject (413) reads and discards at most this much more of the client's upload.
constexpr size_t kMaxDrainBytes = 256ull << 20;
constexpr auto kDrainTimeout = std::chrono::seconds(5);


}  // namespace

HttpSession::HttpSession(tcp::socket socket, HttpServer::Core* core)
    : stream_(std::move(socket), core->tls ? &*core->tls : nullptr), core_(core) {
  core_->stats->ConnectionOpened();
}

HttpSession::~HttpSession() {
  core_->stats->ConnectionClosed();
  core_->Unregister(this);
}

void HttpSession::Start() {
  beast::error_code ec;
  stream_.socket().set_option(tcp::no_delay(true), ec);  // small responses must not wait for ACKs
  if (!stream_.is_tls()) return ReadHeader();
  stream_.expires_after(core_->options.io_timeout);
  stream_.async_handshake([self = shared_from_this()](BeastError e) { self->OnHandshake(e); });
}

void HttpSession::OnHandshake(BeastError ec) {
  if (ec) {
    // A client speaking plain HTTP to the TLS port, or one that does not trust our certificate.
    GNOMON_LOG_DEBUG("[http] TLS handshake failed: {}", ec.message());
    return Close();
  }
  ReadHeader();
}

void HttpSession::OnServerStop() {
  stop_requested_ = true;
  if (state_ == State::kIdle) Close();  // cancels the pending header read
}

void HttpSession::ReadHeader() {
  if (stop_requested_) return Close();
  state_ = State::kIdle;
  if (parser_) {
    spare_ = parser_->release();
    parser_.reset();
  }
  spare_.clear();  // drops the fields; the parser overwrites method, target and version
  spare_.body().clear();
  parser_.emplace(std::move(spare_));
  parser_->header_limit(static_cast<uint32_t>(core_->options.max_header_bytes));
  parser_->body_limit(boost::none);
  stream_.expires_after(core_->options.idle_timeout);
  bhttp::async_read_header(stream_, buffer_, *parser_,
                           [self = shared_from_this()](BeastError ec, size_t) { self->OnHeader(ec); });
}

void HttpSession::OnHeader(BeastError ec) {
  if (ec) {
    if (ec == bhttp::error::header_limit) return Reject(431, "request header too large");
    if (ec.category() == bhttp::make_error_code(bhttp::error::bad_target).category() &&
        ec != bhttp::error::end_of_stream && ec != bhttp::error::partial_message) {
      return Reject(400, "malformed HTTP request: " + ec.message());
    }
    return Close();  // closed by the client, idle timeout, or shutdown
  }
  // The limit is checked here rather than by the parser so that the answer can use the route's
  // error dialect (the parser would fail before the request line is available to us).
  auto content_length = parser_->content_length();
  if (content_length && *content_length > core_->options.max_body_bytes) {
    return Reject(413, "request body of " + std::to_string(*content_length) +
                           " bytes is larger than the limit of " +
                           std::to_string(core_->options.max_body_bytes) + " bytes");
  }
  parser_->body_limit(core_->options.max_body_bytes);  // still enforced for chunked bodies
  state_ = State::kReading;
  request_.receive_time_ns = NowNanos();
  const auto& head = parser_->get();
  if (beast::iequals(head[bhttp::field::expect], "100-continue")) {
    continue_ = {};
    continue_.version(11);
    continue_.result(bhttp::status::continue_);
    stream_.expires_after(core_->options.io_timeout);
    bhttp::async_write(stream_, continue_,
                       [self = shared_from_this()](BeastError ec2, size_t) {
                         if (ec2) return self->Close();
                         self->ReadBody();
                       });
    return;
  }
  ReadBody();
}

void HttpSession::ReadBody() {
  direct_body_ = false;
  auto content_length = parser_->content_length();
  // Chunked bodies (no Content-Length) and empty ones go through the parser.
  if (content_length && *content_length > 0 && !parser_->is_done()) {
    return ReadBodyDirect(static_cast<size_t>(*content_length));
  }
  stream_.expires_after(core_->options.io_timeout);
  bhttp::async_read(stream_, buffer_, *parser_,
                    [self = shared_from_this()](BeastError ec, size_t) { self->OnBody(ec); });
}

void HttpSession::ReadBodyDirect(size_t length) {
  direct_body_ = true;
  body_length_ = length;
  if (body_.size() < length) body_.resize(length);
  // The head's read may have taken the start of the body (and, pipelined, even what follows it):
  // take the body's part, leave the rest for the next request.
  auto buffered = buffer_.data();
  size_t have = std::min(length, buffered.size());
  std::memcpy(body_.data(), buffered.data(), have);
  buffer_.consume(have);
  if (have == length) return Dispatch();
  // One timeout for the whole body, as before; each socket read takes all the kernel has.
  stream_.expires_after(core_->options.io_timeout);
  net::async_read(stream_, net::buffer(body_.data() + have, length - have),
                  [self = shared_from_this()](BeastError ec, size_t) { self->OnBody(ec); });
}

void HttpSession::OnBody(BeastError ec) {
  if (ec) {
    if (ec == bhttp::error::body_limit) {
      return Reject(413, "request body is larger than the limit of " +
                             std::to_string(core_->options.max_body_bytes) + " bytes");
    }
    return Close();  // the client went away or timed out mid-request: nobody to answer
  }
  Dispatch();
}

void HttpSession::Dispatch() {
  state_ = State::kHandling;
  auto& msg = parser_->get();
  FillRequestHead(msg, &request_);
  head_request_ = request_.method == Method::kHead;
  http10_ = msg.version() < 11;
  std::string_view raw_body =
      direct_body_ ? std::string_view(body_.data(), body_length_) : std::string_view(msg.body());
  request_.wire_body_bytes = raw_body.size();
  request_.body = raw_body;

  std::string_view encoding = ToStringView(msg[bhttp::field::content_encoding]);
  const BodyEncoding body_encoding = EncodingOf(encoding);
  if (body_encoding == BodyEncoding::kGzip) {
    auto inflated = gzip_.Decompress(raw_body, core_->options.max_body_bytes);
    if (!inflated.ok()) {
      if (inflated.status().code() == Status::Code::kResourceExhausted) {
        return Reject(413, inflated.status().message());
      }
      return Reject(400, inflated.status().message());
    }
    request_.body = *inflated;
  } else if (body_encoding == BodyEncoding::kUnsupported) {
    return Reject(415, "unsupported Content-Encoding: " + std::string(encoding));
  }

  stream_.expires_never();  // the handler may wait on the disk; timeouts resume for the write
  net::post(core_->worker_pool, [self = shared_from_this()] { self->RunHandler(); });
}

void HttpSession::RunHandler() {
  handler_response_ = Response();
  route_ = core_->router->Dispatch(request_, &handler_response_);
  if (handler_response_.stream) {
    // Moved out first: the producer may rewrite the Response it lives in.
    StreamProducer producer = std::move(handler_response_.stream);
    handler_response_.stream = nullptr;
    int status = handler_response_.status;
    bool has_body = !(status == 204 || status == 304 || status < 200);
    StreamEnd end = has_body ? RunStream(producer) : StreamEnd::kNotStarted;
    if (end != StreamEnd::kNotStarted) {
      net::post(stream_.get_executor(), [self = shared_from_this(), end] { self->AfterStream(end); });
      return;
    }
  }
  net::post(stream_.get_executor(), [self = shared_from_this()] {
    self->Reply(!self->parser_->get().keep_alive() || self->stop_requested_ ||
                self->core_->draining());
  });
}

void HttpSession::Reply(bool close_after) {
  state_ = State::kWriting;
  Response& r = handler_response_;
  core_->stats->RecordRequest(route_, r.status, request_.wire_body_bytes, request_.body.size(),
                              r.body.size());
  response_ = {};
  response_.version(11);
  response_.result(static_cast<unsigned>(r.status));
  for (const auto& [name, value] : core_->options.default_headers) response_.set(name, value);
  if (!r.content_type.empty()) response_.set(bhttp::field::content_type, r.content_type);
  for (const auto& [name, value] : r.headers) response_.set(name, value);
  response_.keep_alive(!close_after);
  if (r.status == 204 || r.status == 304 || r.status < 200) {
    // No body and no Content-Length for these statuses (RFC 9110 8.6).
  } else if (head_request_) {
    response_.content_length(r.body.size());  // what GET would send; no body follows
  } else {
    response_.body() = std::move(r.body);
    response_.prepare_payload();
  }
  stream_.expires_after(core_->options.io_timeout);
  bhttp::async_write(stream_, response_,
                     [self = shared_from_this(), close_after](BeastError ec, size_t n) {
                       self->OnWrite(close_after, ec, n);
                     });
}

void HttpSession::OnWrite(bool close_after, BeastError ec, size_t) {
  if (ec || close_after) return Close();
  RecycleBuffers();
  ReadHeader();
}

void HttpSession::RecycleBuffers() {
  handler_response_ = Response();
  request_.body = {};
  request_.headers.clear();
  if (parser_ && parser_->get().body().capacity() > kKeepBufferBytes) {
    std::string().swap(parser_->get().body());
  }
  if (body_.capacity() > kKeepBufferBytes) std::string().swap(body_);
  if (response_.body().capacity() > kKeepBufferBytes) std::string().swap(response_.body());
  stream_serializer_.reset();
  stream_head_ = {};
  std::string().swap(stream_out_);  // a send's worth each; not worth keeping between requests
  std::string().swap(stream_next_);
  gzip_.Trim(kKeepBufferBytes);
}

void HttpSession::Reject(int status, std::string_view message) {
  state_ = State::kWriting;
  Method method = Method::kOther;
  std::string_view path;
  if (parser_ && parser_->is_header_done()) {
    method = ToMethod(parser_->get().method());
    std::string_view target = ToStringView(parser_->get().target());
    path = target.substr(0, target.find('?'));
  }
  handler_response_ = Response();
  core_->router->WriteError(method, path, status, message, &handler_response_);
  route_ = core_->router->RouteName(method, path);
  request_.wire_body_bytes = 0;
  request_.body = {};
  Response& r = handler_response_;
  core_->stats->RecordRequest(route_, r.status, 0, 0, r.body.size());
  response_ = {};
  response_.version(11);
  response_.result(static_cast<unsigned>(r.status));
  for (const auto& [name, value] : core_->options.default_headers) response_.set(name, value);
  if (!r.content_type.empty()) response_.set(bhttp::field::content_type, r.content_type);
  response_.keep_alive(false);
  response_.body() = std::move(r.body);
  response_.prepare_payload();
  stream_.expires_after(core_->options.io_timeout);
  bhttp::async_write(stream_, response_, [self = shared_from_this()](BeastError ec, size_t) {
    if (ec) return self->Close();
    self->DrainAndClose();
  });
}

void HttpSession::DrainAndClose() {
  state_ = State::kClosing;
  if (drained_bytes_ == 0) {
    beast::error_code ec;
    stream_.socket().shutdown(tcp::socket::shutdown_send, ec);
    stream_.expires_after(kDrainTimeout);
  }
  stream_.async_read_some(net::buffer(drain_buffer_),
                          [self = shared_from_this()](BeastError ec, size_t n) {
                            self->drained_bytes_ += n + 1;
                            if (ec || self->drained_bytes_ > kMaxDrainBytes) return self->Close();
                            self->DrainAndClose();
                          });
}

void HttpSession::Close() {
  state_ = State::kClosing;
  beast::error_code ec;
  stream_.socket().shutdown(tcp::socket::shutdown_both, ec);
  stream_.socket().close(ec);
}

}  // namespace gnomon::server::http
