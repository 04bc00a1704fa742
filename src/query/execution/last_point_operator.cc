#include "src/query/execution/last_point_operator.h"

namespace gnomon::query {

LastPointOperator::LastPointOperator(std::shared_ptr<storage::TableReader> reader,
                                     std::string table, std::vector<ScanColumn> columns,
                                     std::vector<storage::SeriesId> series)
    : reader_(std::move(reader)), table_(std::move(table)), columns_(std::move(columns)),
      series_(std::move(series)) {
  const storage::TableInfo& info = reader_->Info();
  for (const ScanColumn& c : columns_) {
    schema_.push_back(ResultColumn{c.name, c.type});
    int id = -1;
    if (c.kind == ScanColumn::Kind::kField) {
      int field = 0;
      for (const storage::ColumnInfo& ci : info.columns) {
        if (ci.kind != storage::ColumnInfo::Kind::kField) continue;
        if (ci.name == c.name) id = field;
        ++field;
      }
    }
    field_ids_.push_back(id);
  }
}

Status LastPointOperator::NextImpl(Chunk* chunk, bool* done) {
  chunk->rows = 0;
  chunk->columns.assign(columns_.size(), Vector{});
  for (size_t c = 0; c < columns_.size(); ++c) InitVector(&chunk->columns[c], columns_[c].type);
  storage::LastRow last;
  for (storage::SeriesId id : series_) {
    if (!reader_->LastRowOf(id, &last)) continue;
    for (size_t c = 0; c < columns_.size(); ++c) {
      Vector& v = chunk->columns[c];
      switch (columns_[c].kind) {
        case ScanColumn::Kind::kTime: AppendValue(&v, Value::Timestamp(last.time)); break;
        case ScanColumn::Kind::kTag: {
          std::string_view tag = reader_->SeriesTag(id, columns_[c].name);
          AppendValue(&v, tag.empty() ? Value::Null() : Value::String(std::string(tag)));
          break;
        }
        case ScanColumn::Kind::kField: {
          Value val;
          for (const storage::FieldValue& fv : last.values) {
            if (static_cast<int>(fv.field) != field_ids_[c]) continue;
            switch (columns_[c].type) {
              case ValueType::kFloat64: val = Value::Float(fv.f64); break;
              case ValueType::kInt64: val = Value::Int(fv.i64); break;
              case ValueType::kUInt64: val = Value::UInt(fv.u64); break;
              case ValueType::kBool: val = Value::Bool(fv.b); break;
              case ValueType::kString:
                val = Value::String(last.strings.substr(fv.str.offset, fv.str.length));
                break;
              default: break;
            }
          }
          AppendValue(&v, val);
          break;
        }
      }
    }
    ++chunk->rows;
  }
  *done = true;
  return Status::OK();
}

}  // namespace gnomon::query
