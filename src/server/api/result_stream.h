// ResultStream: a query result on its way into an HTTP answer. It renders through a ResultWriter
// into a buffer and keeps the first `buffer_bytes` there, so a result that fits (or an error found
// before that) can still be answered as an ordinary response with its proper status. Once the
// buffer passes `buffer_bytes` the answer starts streaming: the buffered bytes go to the ChunkSink
// (which commits the response as 200), then about every `flush_bytes` more. Memory stays at
// about buffer_bytes plus one result chunk, whatever the result's size.
#pragma once

#include <cstddef>
#include <string>

#include "src/server/api/result_writer.h"
#include "src/server/http/http_message.h"

namespace gnomon::server::api {

struct ResultStreamLimits {
  size_t buffer_bytes = 1 << 20;   // answered buffered when the whole result fits
  size_t flush_bytes = 256 << 10;  // one ChunkSink::Write's size once streaming
};

// Bytes on their way into an HTTP answer, rendered by the caller into `*bytes`: held while they
// fit in limits.buffer_bytes, so that a small answer (or an error found early) still goes out as an
// ordinary response; past that, sent to the sink about every limits.flush_bytes. Used by
// ResultStream (/v1/sql) and by /query's answers.
class AnswerBuffer {
 public:
  // `bytes` and `out` must outlive this object.
  AnswerBuffer(std::string* bytes, http::ChunkSink* out, ResultStreamLimits limits)
      : bytes_(bytes), out_(out), limits_(limits) {}

  // After each append: starts streaming past the buffer limit, then sends in pieces. A non-OK
  // return is ChunkSink::Write's (the client has gone, or HEAD).
  Status MaybeSend();
  // REQUIRES: streaming(). Sends what is still held.
  Status Flush();
  bool streaming() const { return streaming_; }
  bool sink_failed() const { return sink_failed_; }

 private:
  Status Send();

  std::string* bytes_;
  http::ChunkSink* out_;
  ResultStreamLimits limits_;
  bool streaming_ = false;
  bool sink_failed_ = false;
};

class ResultStream final : public query::ResultSink {
 public:
  // `out` must outlive this object.
  // `pool`: see ResultWriter.
  ResultStream(ResultFormat format, EpochUnit epoch, http::ChunkSink* out,
               ResultStreamLimits limits = {}, TaskPool* pool = nullptr);

  // A non-OK return is ChunkSink::Write's (the client has gone, or HEAD): the query must stop.
  Status Begin(const std::vector<query::ResultColumn>& columns) override;
  Status Chunk(const query::ResultChunk& chunk) override;
  Status End(const query::QueryStats& stats) override;
  bool AcceptsConstantVectors() const override { return true; }
  bool AcceptsStringViews() const override { return true; }

  // True once bytes have gone to the sink: the response is committed (status 200).
  bool streaming() const { return sender_.streaming(); }
  // True when the sink refused bytes: the failure is the client's, not the query's.
  bool sink_failed() const { return sender_.sink_failed(); }
  // REQUIRES: streaming(). Sends what is still buffered (after a successful End).
  Status Flush();
  // REQUIRES: !streaming(). The whole rendered answer.
  std::string TakeBuffer() { return std::move(buffer_); }

 private:
  std::string buffer_;
  ResultWriter writer_;
  AnswerBuffer sender_;  // of buffer_
};

}  // namespace gnomon::server::api
