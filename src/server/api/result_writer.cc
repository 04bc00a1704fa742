#include "src/server/api/result_writer.h"

#include "src/base/double_format.h"
#include "src/base/task_pool.h"
#include "src/base/time_util.h"
#include "src/server/api/csv_field.h"
#include "src/server/http/json_writer.h"

namespace gnomon::server::api {
namespace {

void AppendDouble(std::string* out, double d) {
  char buf[kDoubleFormatRoom];
  out->append(buf, FormatDouble(buf, d) - buf);
}

TimeFormat TimeFormatOf(EpochUnit epoch) {
  switch (epoch) {
    case EpochUnit::kNone: return {};
    case EpochUnit::kNanosecond: return {1, false};
    case EpochUnit::kMicrosecond: return {kNanosPerMicro, false};
    case EpochUnit::kMillisecond: return {kNanosPerMilli, false};
    case EpochUnit::kSecond: return {kNanosPerSecond, false};
  }
  return {};
}

}  // namespace

ResultWriter::ResultWriter(ResultFormat format, EpochUnit epoch, std::string* out, TaskPool* pool)
    : format_(format), epoch_(epoch), out_(out), pool_(pool), renderer_(format, TimeFormatOf(epoch)) {}

Status ResultWriter::Begin(const std::vector<query::ResultColumn>& columns) {
  columns_ = columns;
  begun_ = true;
  if (format_ == ResultFormat::kCsv) {
    for (size_t i = 0; i < columns.size(); ++i) {
      if (i) out_->push_back(',');
      AppendCsvField(out_, columns[i].name);
    }
    out_->append("\r\n");
    return Status::OK();
  }
  out_->append("{\"columns\":[");
  for (size_t i = 0; i < columns.size(); ++i) {
    if (i) out_->push_back(',');
    out_->append("{\"name\":");
    http::AppendJsonString(out_, columns[i].name);
    out_->append(",\"type\":\"");
    out_->append(ValueTypeName(columns[i].type));
    out_->append("\"}");
  }
  out_->append("],\"rows\":[");
  return Status::OK();
}

Status ResultWriter::Chunk(const query::ResultChunk& chunk) {
  // A large chunk renders in two halves at once: the second on a pool thread if one is free, into
  // its own buffer, by a writer that continues where the first half ends (rows so far, so the
  // JSON row separators come out the same). Rendering is most of the work of a big answer.
  constexpr size_t kParallelRows = 1024;
  if (chunk.rows >= kParallelRows && pool_ != nullptr && pool_->threads() > 0) {
    if (helper_ == nullptr) {  // the renderer and its buffer serve every later large chunk
      helper_ = std::make_unique<RowRenderer>(format_, TimeFormatOf(epoch_));
    }
    const size_t half = chunk.rows / 2;
    helper_text_.clear();
    pool_->ParallelFor(2, [&](int slot) {
      if (slot == 0) {
        renderer_.Render(chunk, 0, 0, half, rows_ > 0, out_);
      } else {
        helper_->Render(chunk, 0, half, chunk.rows, true, &helper_text_);
      }
    });
    out_->append(helper_text_);
    rows_ += chunk.rows;
    return Status::OK();
  }
  renderer_.Render(chunk, 0, 0, chunk.rows, rows_ > 0, out_);
  rows_ += chunk.rows;
  return Status::OK();
}

Status ResultWriter::End(const query::QueryStats& stats) {
  if (format_ == ResultFormat::kJson) {
    out_->append("],\"execution_time_ms\":");
    AppendDouble(out_, static_cast<double>(stats.elapsed_ns) / 1e6);
    out_->push_back('}');
  }
  return Status::OK();
}

}  // namespace gnomon::server::api
