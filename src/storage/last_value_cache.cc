#include "src/storage/last_value_cache.h"

#include <cstring>

namespace gnomon::storage {

LastValueCache::Entry& LastValueCache::Slot(SeriesId series) {
  if (series >= entries_.size()) entries_.resize(series + 1);
  return entries_[series];
}

void LastValueCache::Offer(SeriesId series, int64_t time, const TableBatch& batch, const Row& row,
                           const std::vector<ColumnId>& field_ids) {
  Entry& e = Slot(series);
  if (e.present && time < e.time) return;
  if (!e.present || time > e.time) {
    e.present = true;
    e.time = time;
    std::fill(e.valid.begin(), e.valid.end(), 0);
  }
  for (uint32_t i = 0; i < row.value_count; ++i) {
    const FieldValue& v = batch.values()[row.value_begin + i];
    ColumnId c = field_ids[v.field];
    if (c >= e.valid.size()) {
      e.valid.resize(c + 1, 0);
      e.bits.resize(c + 1, 0);
      e.strings.resize(c + 1);
    }
    e.valid[c] = 1;
    switch (batch.fields()[v.field].type) {
      case ValueType::kFloat64: std::memcpy(&e.bits[c], &v.f64, 8); break;
      case ValueType::kInt64: e.bits[c] = static_cast<uint64_t>(v.i64); break;
      case ValueType::kUInt64: e.bits[c] = v.u64; break;
      case ValueType::kBool: e.bits[c] = v.b ? 1 : 0; break;
      case ValueType::kString: e.strings[c] = std::string(batch.StringValue(v)); break;
      default: break;
    }
  }
}

void LastValueCache::OfferColumns(SeriesId series, int64_t time, const std::vector<uint64_t>& bits,
                                  const std::vector<std::string>& strings,
                                  const std::vector<uint8_t>& valid, const TableSchema& schema) {
  Entry& e = Slot(series);
  if (e.present && time < e.time) return;
  if (!e.present || time > e.time) {
    e.present = true;
    e.time = time;
    std::fill(e.valid.begin(), e.valid.end(), 0);
  }
  if (e.valid.size() < valid.size()) {
    e.valid.resize(valid.size(), 0);
    e.bits.resize(valid.size(), 0);
    e.strings.resize(valid.size());
  }
  for (size_t c = 0; c < valid.size(); ++c) {
    if (!valid[c]) continue;
    e.valid[c] = 1;
    if (schema.fields()[c].type == ValueType::kString) {
      e.strings[c] = strings[c];
    } else {
      e.bits[c] = bits[c];
    }
  }
}

bool LastValueCache::Get(SeriesId series, const TableSchema& schema, LastRow* out) const {
  if (series >= entries_.size() || !entries_[series].present) return false;
  const Entry& e = entries_[series];
  out->time = e.time;
  out->values.clear();
  out->strings.clear();
  for (size_t c = 0; c < e.valid.size(); ++c) {
    if (!e.valid[c]) continue;
    FieldValue v;
    v.field = static_cast<uint32_t>(c);
    switch (schema.fields()[c].type) {
      case ValueType::kFloat64: std::memcpy(&v.f64, &e.bits[c], 8); break;
      case ValueType::kInt64: v.i64 = static_cast<int64_t>(e.bits[c]); break;
      case ValueType::kUInt64: v.u64 = e.bits[c]; break;
      case ValueType::kBool: v.b = e.bits[c] != 0; break;
      case ValueType::kString:
        v.str.offset = static_cast<uint32_t>(out->strings.size());
        v.str.length = static_cast<uint32_t>(e.strings[c].size());
        out->strings += e.strings[c];
        break;
      default: break;
    }
    out->values.push_back(v);
  }
  return true;
}

void LastValueCache::Invalidate(SeriesId series) {
  if (series < entries_.size()) entries_[series] = Entry{};
}

}  // namespace gnomon::storage
