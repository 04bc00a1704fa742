#include "src/server/api/influxql_into_writer.h"

#include <utility>

#include "src/server/api/influxql_series_writer.h"

namespace gnomon::server::api {
namespace {

constexpr size_t kRowsPerWrite = 10'000;  // bounds the batch a large INTO holds at once

}  // namespace

IntoWriter::IntoWriter(const query::influxql::CompiledSelect& compiled, storage::Engine* engine, std::string database,
                       std::string measurement)
    : c_(compiled), engine_(engine), database_(std::move(database)), measurement_(std::move(measurement)),
      batch_(database_) {}

Status IntoWriter::Begin(const std::vector<query::ResultColumn>& columns) {
  ntags_ = c_.tag_keys.size();
  return CheckCompiledColumns(c_, columns);
}

Status IntoWriter::AddRow(const query::ResultChunk& chunk, size_t row) {
  if (table_ == nullptr) table_ = batch_.Table(measurement_);
  values_.clear();
  const size_t time_column = ntags_;
  for (size_t c = time_column + 1; c < chunk.columns.size(); ++c) {
    const query::ResultVector& v = chunk.columns[c];
    if (v.type == ValueType::kNull || v.IsNull(row)) continue;
    const std::string& name = c_.columns[c - ntags_];
    ValueType type = v.type == ValueType::kTimestamp ? ValueType::kInt64 : v.type;
    uint32_t field = 0;
    if (!table_->FindOrAddField(name, type, &field)) {
      return Status::TypeConflict("field " + name + " has two types in the INTO results");
    }
    storage::FieldValue fv;
    fv.field = field;
    switch (type) {
      case ValueType::kFloat64: fv.f64 = v.f64[row]; break;
      case ValueType::kInt64: fv.i64 = v.i64[row]; break;
      case ValueType::kUInt64: fv.u64 = v.u64[row]; break;
      case ValueType::kBool: fv.b = v.b[row] != 0; break;
      case ValueType::kString: fv = table_->MakeStringValue(field, v.str[row]); break;
      default: continue;
    }
    values_.push_back(fv);
  }
  if (values_.empty()) return Status::OK();  // InfluxDB writes no point without a field
  storage::TagSet tags;
  for (size_t t = 0; t < ntags_; ++t) {
    const query::ResultVector& v = chunk.columns[t];
    if (v.type != ValueType::kString || v.IsNull(row) || v.str[row].empty()) continue;
    tags.push_back({c_.tag_keys[t], v.str[row]});  // tag_keys are sorted: the set is canonical
  }
  const int64_t time = chunk.columns[time_column].i64[row];
  // Rows come series by series: one batch entry per run of equal tags.
  if (series_ == kNoSeries || tags != last_tags_) {
    last_tags_ = tags;
    series_ = table_->AddSeries(std::move(tags));
  }
  table_->AddRow(series_, time, 0, values_.data(), values_.size());
  if (batch_.RowCount() >= kRowsPerWrite) return Flush();
  return Status::OK();
}

Status IntoWriter::Chunk(const query::ResultChunk& chunk) {
  for (size_t row = 0; row < chunk.rows; ++row) GNOMON_RETURN_IF_ERROR(AddRow(chunk, row));
  return Status::OK();
}

Status IntoWriter::Flush() {
  if (batch_.empty()) return Status::OK();
  GNOMON_ASSIGN_OR_RETURN(storage::WriteOutcome outcome, engine_->Write(batch_, storage::WriteOptions{}));
  written_ += static_cast<int64_t>(outcome.rows_written);
  if (!outcome.rejected.empty()) {
    return Status::TypeConflict("partial write: " + outcome.rejected.front().reason + " (" +
                                std::to_string(outcome.rejected.size()) + " points dropped)");
  }
  batch_ = storage::WriteBatch(database_);
  table_ = nullptr;
  series_ = kNoSeries;
  return Status::OK();
}

Status IntoWriter::End(const query::QueryStats&) { return Flush(); }

}  // namespace gnomon::server::api
