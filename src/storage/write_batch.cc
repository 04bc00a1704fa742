#include "src/storage/write_batch.h"

#include "src/base/check.h"

namespace gnomon::storage {

uint32_t TableBatch::AddSeries(TagSet tags) {
  // Batches are small relative to the series registry; a linear scan over the batch's own series
  // would be quadratic for large batches, so callers dedupe with their own raw-key cache.
  series_.push_back(std::move(tags));
  if (!resolved_.empty()) resolved_.push_back(kUnresolvedSeries);
  return static_cast<uint32_t>(series_.size() - 1);
}

uint32_t TableBatch::AddResolvedSeries(SeriesId id) {
  GNOMON_CHECK(id != kUnresolvedSeries);
  if (resolved_.size() < series_.size()) resolved_.resize(series_.size(), kUnresolvedSeries);
  series_.emplace_back();
  resolved_.push_back(id);
  return static_cast<uint32_t>(series_.size() - 1);
}

bool TableBatch::FindOrAddField(std::string_view name, ValueType type, uint32_t* index) {
  auto it = field_index_.find(name);
  if (it != field_index_.end()) {
    if (fields_[it->second].type != type) return false;
    *index = it->second;
    return true;
  }
  auto idx = static_cast<uint32_t>(fields_.size());
  fields_.push_back(FieldDef{std::string(name), type});
  field_index_.emplace(std::string(name), idx);
  *index = idx;
  return true;
}

void TableBatch::AddString(uint32_t field, std::string_view v) {
  GNOMON_DCHECK(!rows_.empty());
  FieldValue fv;
  fv.field = field;
  fv.str.offset = static_cast<uint32_t>(strings_.size());
  fv.str.length = static_cast<uint32_t>(v.size());
  strings_.append(v);
  values_.push_back(fv);
  rows_.back().value_count++;
}

void TableBatch::DropLastRow() {
  GNOMON_CHECK(!rows_.empty());
  values_.resize(rows_.back().value_begin);
  rows_.pop_back();
}

size_t TableBatch::ApproximateBytes() const {
  return rows_.size() * sizeof(Row) + values_.size() * sizeof(FieldValue) + strings_.size() +
         series_.size() * 64;
}

TableBatch* WriteBatch::Table(std::string_view table) {
  auto it = by_name_.find(table);
  if (it != by_name_.end()) return it->second;
  tables_.push_back(std::make_unique<TableBatch>(std::string(table)));
  TableBatch* t = tables_.back().get();
  by_name_.emplace(std::string(table), t);
  return t;
}

size_t WriteBatch::RowCount() const {
  size_t n = 0;
  for (const auto& t : tables_) n += t->rows().size();
  return n;
}

}  // namespace gnomon::storage
