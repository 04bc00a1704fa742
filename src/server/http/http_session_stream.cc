// HttpSession, streamed bodies (Response::stream): the producer runs on the worker that ran the
// handler; every send it asks for is started on the connection's strand and waited for here.
#include <boost/asio/post.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/http/write.hpp>

#include <algorithm>
#include <cstdio>
#include <exception>

#include "src/base/logging.h"
#include "src/server/http/http_session.h"

namespace gnomon::server::http {
namespace net = boost::asio;
namespace bhttp = boost::beast::http;

namespace {

// One send carries at most this much of a Write's bytes: they are copied into the session (a send
// may outlive a Write cut short by shutdown), so this bounds that copy.
constexpr size_t kMaxSendBytes = 1 << 20;

}  // namespace

// The ChunkSink a producer writes to. Worker thread only.
//
// Double-buffered: a Write frames its bytes into stream_next_ while the previous send is still in
// flight, then waits for that send and starts its own, so that the producer computes its next
// piece while the socket takes the last one. A failed send is therefore reported by the Write
// after the one whose bytes it carried (or by Finish).
class HttpSession::StreamSink final : public ChunkSink {
 public:
  explicit StreamSink(HttpSession* session) : s_(session) {}

  Status Write(std::string_view bytes) override {
    if (!error_.ok()) return error_;
    if (bytes.empty()) return Status::OK();
    bool with_head = false;
    if (!committed_) {
      committed_ = true;
      with_head = true;
      BuildHead();
      if (s_->head_request_) {
        // A HEAD answer is the head alone: stop the producer as soon as the status is known.
        s_->stream_next_.clear();
        if (Send(true, 0) && Drain()) {
          head_only_ = true;
          error_ = Status::Aborted("HEAD request: the body is not sent");
        }
        return error_;
      }
    }
    while (!bytes.empty()) {
      size_t n = std::min(bytes.size(), kMaxSendBytes);
      std::string& out = s_->stream_next_;
      out.clear();
      if (!s_->http10_) {
        char size_line[24];
        int len = std::snprintf(size_line, sizeof(size_line), "%zx\r\n", n);
        out.append(size_line, static_cast<size_t>(len));
      }
      out.append(bytes.data(), n);
      if (!s_->http10_) out.append("\r\n");
      if (!Drain() || !Send(with_head, n)) return error_;
      with_head = false;
      bytes.remove_prefix(n);
    }
    return Status::OK();
  }

  // Ends a body that went out complete: the last chunk (HTTP/1.1; HTTP/1.0 bodies end with the
  // connection), and waits until everything is sent; failures land in error(). REQUIRES: committed.
  void Finish() {
    if (error_.ok() && !s_->http10_) {
      s_->stream_next_.assign("0\r\n\r\n");
      if (Drain()) Send(false, 0);
    }
    Drain();
  }

  // Waits for the send in flight, if any. False (and error_ set) when it failed.
  bool Drain() {
    if (!in_flight_) return error_.ok();
    in_flight_ = false;
    Status s = s_->AwaitSend();
    if (s.ok()) {
      body_bytes_ += in_flight_bytes_;
    } else if (error_.ok()) {
      error_ = s;
    }
    return error_.ok();
  }

  bool committed() const { return committed_; }
  bool failed() const { return !error_.ok(); }
  const Status& error() const { return error_; }
  bool head_only() const { return head_only_; }
  uint64_t body_bytes() const { return body_bytes_; }

 private:
  // The head from the Response as it is now; keep-alive is decided on the strand at send time.
  void BuildHead() {
    const Response& r = s_->handler_response_;
    auto& head = s_->stream_head_;
    head = {};
    head.version(11);
    head.result(static_cast<unsigned>(r.status));
    for (const auto& [name, value] : s_->core_->options.default_headers) head.set(name, value);
    if (!r.content_type.empty()) head.set(bhttp::field::content_type, r.content_type);
    for (const auto& [name, value] : r.headers) head.set(name, value);
    // HTTP/1.0 has no chunked encoding: the body ends when the connection closes (RFC 9112 6.3).
    if (!s_->http10_) head.chunked(true);
  }

  // Starts sending stream_next_ carrying `n` body bytes. REQUIRES: nothing in flight.
  bool Send(bool with_head, size_t n) {
    error_ = s_->PostSend(with_head);
    if (!error_.ok()) return false;
    in_flight_ = true;
    in_flight_bytes_ = n;
    return true;
  }

  HttpSession* s_;
  Status error_;
  bool committed_ = false;
  bool head_only_ = false;
  bool in_flight_ = false;
  size_t in_flight_bytes_ = 0;
  uint64_t body_bytes_ = 0;  // confirmed sent
};

HttpSession::StreamEnd HttpSession::RunStream(const StreamProducer& producer) {
  StreamSink sink(this);
  Status s;
  bool threw = false;
  try {
    s = producer(&handler_response_, &sink);
  } catch (const std::exception& e) {
    threw = true;
    s = Status::Internal(std::string("internal error: ") + e.what());
  } catch (...) {
    threw = true;
    s = Status::Internal("internal error");
  }
  if (!sink.committed()) {
    if (!s.ok()) {
      // Nothing sent yet: the failure still gets a proper error answer, buffered as usual.
      GNOMON_LOG_ERROR("[http] {} producer failed{}: {}", route_, threw ? " (threw)" : "",
                       s.ToString());
      handler_response_.headers.clear();
      core_->router->WriteError(request_.method, request_.path, 500, s.message(),
                                &handler_response_);
    }
    return StreamEnd::kNotStarted;
  }
  // Whatever happens next, no send of this stream is left in flight (unless the server cut it).
  if (s.ok()) {
    sink.Finish();
  } else {
    sink.Drain();
  }
  StreamEnd end = StreamEnd::kCut;
  if (sink.head_only()) {
    end = StreamEnd::kComplete;
  } else if (s.ok() && !sink.failed()) {
    end = StreamEnd::kComplete;
  } else if (sink.failed()) {
    // The client went away, a send timed out, or shutdown cut the connection.
    GNOMON_LOG_DEBUG("[http] {} stream stopped after {} bytes: {}", route_, sink.body_bytes(),
                     sink.error().ToString());
  } else {
    GNOMON_LOG_WARN(
        "[http] {} failed after {} bytes of its answer were sent; closing the "
        "connection without the last chunk: {}",
        route_, sink.body_bytes(), s.ToString());
  }
  core_->stats->RecordRequest(route_, handler_response_.status, request_.wire_body_bytes,
                              request_.body.size(), sink.body_bytes());
  return end;
}

Status HttpSession::PostSend(bool with_head) {
  {
    std::lock_guard<std::mutex> lock(stream_mu_);
    if (cut_) return Status::Aborted("connection cut: the server is shutting down");
    stream_send_done_ = false;
  }
  std::swap(stream_out_, stream_next_);  // the strand owns stream_out_ until the send is done
  net::post(stream_.get_executor(),
            [self = shared_from_this(), with_head] { self->StartStreamSend(with_head); });
  return Status::OK();
}

Status HttpSession::AwaitSend() {
  std::unique_lock<std::mutex> lock(stream_mu_);
  stream_cv_.wait(lock, [this] { return stream_send_done_ || cut_; });
  // After a cut the send may still be in flight; every later PostSend fails before touching the
  // buffers, so stream_out_ is left to the strand.
  if (!stream_send_done_) return Status::Aborted("connection cut: the server is shutting down");
  if (stream_send_error_) return Status::IOError("send: " + stream_send_error_.message());
  return Status::OK();
}

void HttpSession::StartStreamSend(bool with_head) {
  state_ = State::kWriting;
  stream_.expires_after(core_->options.io_timeout);
  auto send_body = [this, self = shared_from_this()] {
    if (stream_out_.empty()) return OnStreamSent({});
    net::async_write(stream_, net::buffer(stream_out_),
                     [self](BeastError ec, size_t) { self->OnStreamSent(ec); });
  };
  if (!with_head) return send_body();
  stream_close_after_ =
      http10_ || !parser_->get().keep_alive() || stop_requested_ || core_->draining();
  stream_head_.keep_alive(!stream_close_after_);
  stream_serializer_.emplace(stream_head_);
  bhttp::async_write_header(stream_, *stream_serializer_, [this, send_body](BeastError ec, size_t) {
    if (ec) return OnStreamSent(ec);
    send_body();
  });
}

void HttpSession::OnStreamSent(BeastError ec) {
  std::lock_guard<std::mutex> lock(stream_mu_);
  stream_send_done_ = true;
  stream_send_error_ = ec;
  stream_cv_.notify_all();
}

void HttpSession::AfterStream(StreamEnd end) {
  if (end != StreamEnd::kComplete || stream_close_after_) return Close();
  RecycleBuffers();
  ReadHeader();
}

void HttpSession::Cut() {
  std::lock_guard<std::mutex> lock(stream_mu_);
  cut_ = true;
  stream_cv_.notify_all();
}

}  // namespace gnomon::server::http
