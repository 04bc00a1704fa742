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

Status SeriesWriter::Chunk(const query::ResultChunk& chunk) {
  auto tag = [&](size_t t, size_t row) -> std::string_view {
    const query::ResultVector& v = chunk.columns[t];
    return v.type == ValueType::kString && !v.IsNull(row) ? std::string_view(v.str[row]) : std::string_view();
  };
  auto in_current = [&](size_t row) {
    for (size_t t = 0; t < ntags_; ++t) {
      if (tag(t, row) != current_tags_[t]) return false;
    }
    return true;
  };
  size_t row = 0;
  while (row < chunk.rows) {
    if (!have_current_ || !in_current(row)) {  // a new series: its tags are copied once, not per row
      current_tags_.resize(ntags_);
      for (size_t t = 0; t < ntags_; ++t) current_tags_[t] = tag(t, row);
      have_current_ = true;
      CloseSeries();
      OpenSeries(current_tags_);
    }
    size_t end = row + 1;
    while (end < chunk.rows && in_current(end)) ++end;
    if (!skipping_) out_->Rows(chunk, ntags_, row, end);
    row = end;
  }
  return flush_ ? flush_() : Status::OK();
}

Status SeriesWriter::End(const query::QueryStats&) {
  CloseSeries();
  return Status::OK();
}

}  // namespace gnomon::server::api
