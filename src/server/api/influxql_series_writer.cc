#include "src/server/api/influxql_series_writer.h"

namespace gnomon::server::api {

Status CheckCompiledColumns(const query::influxql::CompiledSelect& c, const std::vector<query::ResultColumn>& columns) {
  const size_t expected = c.tag_keys.size() + c.columns.size();
  if (columns.size() != expected) {
    return Status::Internal("InfluxQL query returned " + std::to_string(columns.size()) + " columns, expected " +
                            std::to_string(expected));
  }
  return Status::OK();
}

Status SeriesWriter::Begin(const std::vector<query::ResultColumn>& columns) {
  ntags_ = c_.tag_keys.size();
  return CheckCompiledColumns(c_, columns);
}

void SeriesWriter::OpenSeries(const std::vector<std::string>& tags) {
  ++series_seen_;
  skipping_ = series_seen_ <= c_.soffset || (c_.slimit > 0 && series_seen_ > c_.soffset + c_.slimit);
  if (skipping_) return;
  out_->BeginSeries(&c_.measurement, c_.tag_keys, tags, c_.columns);
  open_ = true;
}

void SeriesWriter::CloseSeries() {
  if (!open_) return;
  out_->EndSeries();
  open_ = false;
}

void SeriesWriter::WriteCell(const query::ResultVector& v, size_t row) {
  if (v.type == ValueType::kNull || v.IsNull(row)) return out_->Null();
  switch (v.type) {
    case ValueType::kInt64: return out_->Int(v.i64[row]);
    case ValueType::kUInt64: return out_->UInt(v.u64[row]);
    case ValueType::kFloat64: return out_->Double(v.f64[row]);
    case ValueType::kBool: return out_->Bool(v.b[row] != 0);
    case ValueType::kString: return out_->String(v.str[row]);
    case ValueType::kTimestamp: return out_->Time(v.i64[row]);
    default: return out_->Null();
  }
}

Status SeriesWriter::Chunk(const query::ResultChunk& chunk) {
  auto tag = [&](size_t t, size_t row) -> std::string_view {
    const query::ResultVector& v = chunk.columns[t];
    return v.type == ValueType::kString && !v.IsNull(row) ? std::string_view(v.str[row]) : std::string_view();
  };
  for (size_t row = 0; row < chunk.rows; ++row) {
    bool same = have_current_;
    for (size_t t = 0; same && t < ntags_; ++t) same = tag(t, row) == current_tags_[t];
    if (!same) {  // a new series: its tags are copied once, not per row
      current_tags_.resize(ntags_);
      for (size_t t = 0; t < ntags_; ++t) current_tags_[t] = tag(t, row);
      have_current_ = true;
      CloseSeries();
      OpenSeries(current_tags_);
    }
    if (skipping_) continue;
    out_->BeginRow();
    for (size_t c = ntags_; c < chunk.columns.size(); ++c) WriteCell(chunk.columns[c], row);
    out_->EndRow();
  }
  return flush_ ? flush_() : Status::OK();
}

Status SeriesWriter::End(const query::QueryStats&) {
  CloseSeries();
  return Status::OK();
}

}  // namespace gnomon::server::api
