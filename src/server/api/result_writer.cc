#include "src/server/api/result_writer.h"

#include <charconv>
#include <cmath>

#include "src/base/time_util.h"
#include "src/server/http/json_writer.h"

namespace gnomon::server::api {
namespace {

void AppendCsvField(std::string* out, std::string_view s) {
  bool quote = s.find_first_of(",\"\r\n") != std::string_view::npos;
  if (!quote) {
    out->append(s);
    return;
  }
  out->push_back('"');
  for (char c : s) {
    if (c == '"') out->push_back('"');
    out->push_back(c);
  }
  out->push_back('"');
}

template <typename T>
void AppendInteger(std::string* out, T v) {
  char buf[24];
  auto r = std::to_chars(buf, buf + sizeof(buf), v);
  out->append(buf, r.ptr - buf);
}

void AppendDouble(std::string* out, double d) {
  char buf[32];
  auto r = std::to_chars(buf, buf + sizeof(buf), d);
  out->append(buf, r.ptr - buf);
}

}  // namespace

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

void ResultWriter::AppendCell(const query::ResultVector& v, size_t row) {
  const bool json = format_ == ResultFormat::kJson;
  if (v.type == ValueType::kNull || v.IsNull(row)) {
    if (json) out_->append("null");
    return;
  }
  switch (v.type) {
    case ValueType::kInt64: AppendInteger(out_, v.i64[row]); break;
    case ValueType::kUInt64: AppendInteger(out_, v.u64[row]); break;
    case ValueType::kFloat64: {
      double d = v.f64[row];
      if (!std::isfinite(d)) {
        // JSON has no NaN/Infinity: null there, the usual spellings in CSV.
        if (json) out_->append("null");
        else out_->append(std::isnan(d) ? "NaN" : (d > 0 ? "Infinity" : "-Infinity"));
      } else {
        AppendDouble(out_, d);
      }
      break;
    }
    case ValueType::kBool: out_->append(v.b[row] ? "true" : "false"); break;
    case ValueType::kString:
      if (json) http::AppendJsonString(out_, v.str[row]);
      else AppendCsvField(out_, v.str[row]);
      break;
    case ValueType::kTimestamp: {
      int64_t t = v.i64[row];
      switch (epoch_) {
        case EpochUnit::kNone:
          if (json) out_->push_back('"');
          AppendRfc3339(out_, t);
          if (json) out_->push_back('"');
          break;
        case EpochUnit::kNanosecond: AppendInteger(out_, t); break;
        case EpochUnit::kMicrosecond: AppendInteger(out_, FloorDiv(t, kNanosPerMicro)); break;
        case EpochUnit::kMillisecond: AppendInteger(out_, FloorDiv(t, kNanosPerMilli)); break;
        case EpochUnit::kSecond: AppendInteger(out_, FloorDiv(t, kNanosPerSecond)); break;
      }
      break;
    }
    default: break;
  }
}

Status ResultWriter::Chunk(const query::ResultChunk& chunk) {
  const bool json = format_ == ResultFormat::kJson;
  for (size_t r = 0; r < chunk.rows; ++r) {
    if (json) {
      if (rows_ > 0) out_->push_back(',');
      out_->push_back('[');
    }
    for (size_t c = 0; c < chunk.columns.size(); ++c) {
      if (c) out_->push_back(',');
      AppendCell(chunk.columns[c], r);
    }
    out_->append(json ? "]" : "\r\n");
    ++rows_;
  }
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
