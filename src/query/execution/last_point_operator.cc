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
  GNOMON_RETURN_IF_ERROR(reader_->CheckLastValues());
  chunk->rows = 0;
  chunk->columns.assign(columns_.size(), Vector{});
  for (size_t c = 0; c < columns_.size(); ++c) InitVector(&chunk->columns[c], columns_[c].type, series_.size());
  storage::LastRow last;
  std::vector<int> value_pos;  // per field id: its index in last.values, or -1
  for (storage::SeriesId id : series_) {
    if (!reader_->LastRowOf(id, &last)) continue;
    std::fill(value_pos.begin(), value_pos.end(), -1);
    for (size_t i = 0; i < last.values.size(); ++i) {
      const uint32_t f = last.values[i].field;
      if (f >= value_pos.size()) value_pos.resize(f + 1, -1);
      value_pos[f] = static_cast<int>(i);
    }
    const size_t row = chunk->rows;
    for (size_t c = 0; c < columns_.size(); ++c) {
      Vector& v = chunk->columns[c];
      switch (columns_[c].kind) {
        case ScanColumn::Kind::kTime:
          v.i64.push_back(last.time);
          MarkValidAt(&v, row, true);
          break;
        case ScanColumn::Kind::kTag: {
          std::string_view tag = reader_->SeriesTag(id, columns_[c].name);
          v.str.emplace_back(tag);
          MarkValidAt(&v, row, !tag.empty());
          break;
        }
        case ScanColumn::Kind::kField: {
          const int f = field_ids_[c];
          const int pos = f >= 0 && static_cast<size_t>(f) < value_pos.size() ? value_pos[f] : -1;
          const storage::FieldValue* fv = pos >= 0 ? &last.values[pos] : nullptr;
          switch (columns_[c].type) {
            case ValueType::kFloat64: v.f64.push_back(fv ? fv->f64 : 0); break;
            case ValueType::kInt64: v.i64.push_back(fv ? fv->i64 : 0); break;
            case ValueType::kUInt64: v.u64.push_back(fv ? fv->u64 : 0); break;
            case ValueType::kBool: v.b.push_back(fv && fv->b ? 1 : 0); break;
            case ValueType::kString:
              if (fv) v.str.emplace_back(last.strings, fv->str.offset, fv->str.length);
              else v.str.emplace_back();
              break;
            default: break;
          }
          MarkValidAt(&v, row, fv != nullptr);
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
