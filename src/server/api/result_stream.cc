#include "src/server/api/result_stream.h"

#include "src/base/check.h"

namespace gnomon::server::api {

ResultStream::ResultStream(ResultFormat format, EpochUnit epoch, http::ChunkSink* out,
                           ResultStreamLimits limits, TaskPool* pool)
    : writer_(format, epoch, &buffer_, pool), sender_(&buffer_, out, limits) {}

Status ResultStream::Begin(const std::vector<query::ResultColumn>& columns) {
  GNOMON_RETURN_IF_ERROR(writer_.Begin(columns));
  return sender_.MaybeSend();
}

Status ResultStream::Chunk(const query::ResultChunk& chunk) {
  GNOMON_RETURN_IF_ERROR(writer_.Chunk(chunk));
  return sender_.MaybeSend();
}

Status ResultStream::End(const query::QueryStats& stats) { return writer_.End(stats); }

Status ResultStream::Flush() { return sender_.Flush(); }

Status AnswerBuffer::Flush() {
  GNOMON_CHECK(streaming_);
  return Send();
}

Status AnswerBuffer::MaybeSend() {
  if (!streaming_) {
    if (bytes_->size() <= limits_.buffer_bytes) return Status::OK();
    streaming_ = true;  // the first Send commits the response
  }
  if (bytes_->size() < limits_.flush_bytes) return Status::OK();
  return Send();
}

Status AnswerBuffer::Send() {
  Status s = out_->Write(*bytes_);
  bytes_->clear();  // keeps its capacity: the next piece reuses it
  if (!s.ok()) sink_failed_ = true;
  return s;
}

}  // namespace gnomon::server::api
