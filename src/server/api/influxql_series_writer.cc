#include "src/server/api/influxql_series_writer.h"

#include "src/base/time_util.h"

namespace gnomon::server::api {

std::string SeriesSet::Finish() {
  json_.EndArray();
  return json_.Release();
}

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
  http::JsonWriter& j = out_->json();
  j.BeginObject().Key("name").String(c_.measurement);
  if (ntags_ > 0) {
    j.Key("tags").BeginObject();
    for (size_t i = 0; i < ntags_; ++i) j.Key(c_.tag_keys[i]).String(tags[i]);
    j.EndObject();
  }
  j.Key("columns").BeginArray();
  for (const auto& c : c_.columns) j.String(c);
  j.EndArray();
  j.Key("values").BeginArray();
  open_ = true;
  out_->Added();
}

void SeriesWriter::CloseSeries() {
  if (!open_) return;
  out_->json().EndArray().EndObject();
  open_ = false;
}

void SeriesWriter::WriteCell(const query::ResultVector& v, size_t row) {
  http::JsonWriter& j = out_->json();
  if (v.type == ValueType::kNull || v.IsNull(row)) {
    j.Null();
    return;
  }
  switch (v.type) {
    case ValueType::kInt64: j.Int(v.i64[row]); return;
    case ValueType::kUInt64: j.UInt(v.u64[row]); return;
    case ValueType::kFloat64: j.Double(v.f64[row]); return;
    case ValueType::kBool: j.Bool(v.b[row] != 0); return;
    case ValueType::kString: j.String(v.str[row]); return;
    case ValueType::kTimestamp: {
      int64_t d = out_->format().epoch_divisor;
      if (d > 0) {
        j.Int(v.i64[row] / d);
      } else {
        j.String(FormatRfc3339(v.i64[row]));
      }
      return;
    }
    default: j.Null(); return;
  }
}

Status SeriesWriter::Chunk(const query::ResultChunk& chunk) {
  std::vector<std::string> tags(ntags_);
  for (size_t row = 0; row < chunk.rows; ++row) {
    for (size_t t = 0; t < ntags_; ++t) {
      const query::ResultVector& v = chunk.columns[t];
      tags[t] = v.type == ValueType::kString && !v.IsNull(row) ? v.str[row] : std::string();
    }
    if (!have_current_ || tags != current_tags_) {
      CloseSeries();
      OpenSeries(tags);
      current_tags_ = tags;
      have_current_ = true;
    }
    if (skipping_) continue;
    http::JsonWriter& j = out_->json();
    j.BeginArray();
    for (size_t c = ntags_; c < chunk.columns.size(); ++c) WriteCell(chunk.columns[c], row);
    j.EndArray();
  }
  return Status::OK();
}

Status SeriesWriter::End(const query::QueryStats&) {
  CloseSeries();
  return Status::OK();
}

}  // namespace gnomon::server::api
