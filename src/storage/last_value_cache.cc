#include "src/storage/last_value_cache.h"

#include <bit>
#include <cstring>

namespace gnomon::storage {

void LastValueCache::Reset(SeriesId series, int64_t time) {
  if (series >= present_.size()) {
    present_.GrowTo(series + 1);
    times_.GrowTo(series + 1, 0);
  }
  present_.Set(series, true);
  times_[series] = time;
  for (Column& col : columns_) {
    if (series < col.valid.size()) col.valid.Set(series, false);
  }
}

LastValueCache::Column& LastValueCache::ColumnFor(ColumnId c, SeriesId series, bool strings) {
  if (c >= columns_.size()) columns_.resize(c + 1);
  Column& col = columns_[c];
  if (series >= col.valid.size()) {
    col.valid.GrowTo(series + 1);
    col.bits.GrowTo(series + 1);
  }
  if (strings && series >= col.strings.size()) col.strings.GrowTo(series + 1);
  return col;
}

bool LastValueCache::Admit(SeriesId series, int64_t time) {
  const bool had = Has(series);
  if (had && time < times_[series]) return false;
  if (!had || time > times_[series]) Reset(series, time);
  return true;
}

void LastValueCache::Offer(SeriesId series, int64_t time, const TableBatch& batch, const Row& row,
                           const std::vector<ColumnId>& field_ids) {
  if (OfferNewer(series, time, batch, row, field_ids)) return;
  if (!Admit(series, time)) return;
  for (uint32_t i = 0; i < row.value_count; ++i) {
    const FieldValue& v = batch.values()[row.value_begin + i];
    const ValueType type = batch.fields()[v.field].type;
    const bool is_string = type == ValueType::kString;
    Column& col = ColumnFor(field_ids[v.field], series, is_string);
    col.valid.Set(series, true);
    if (is_string) {
      col.strings[series] = std::string(batch.StringValue(v));
    } else {
      col.bits.Set(series, FieldValueBits(v, type));
    }
  }
}

bool LastValueCache::OfferNewer(SeriesId series, int64_t time, const TableBatch& batch, const Row& row,
                                const std::vector<ColumnId>& field_ids) {
  // The usual write: a row newer than the cached one, of numeric fields with small column ids.
  // It replaces the whole row in one pass over the columns (set the row's, clear the others),
  // instead of clearing every column and then setting the row's.
  if (!Has(series) || time <= times_[series]) return false;
  const FieldValue* values = batch.values().data() + row.value_begin;
  uint64_t set = 0;
  for (uint32_t i = 0; i < row.value_count; ++i) {
    const ColumnId c = field_ids[values[i].field];
    if (c >= 64 || batch.fields()[values[i].field].type == ValueType::kString) return false;
    set |= uint64_t{1} << c;
  }
  times_[series] = time;
  const size_t needed = set == 0 ? 0 : 64 - static_cast<size_t>(std::countl_zero(set));
  if (columns_.size() < needed) columns_.resize(needed);
  for (size_t c = 0; c < columns_.size(); ++c) {
    Column& col = columns_[c];
    if (set >> c & 1) {
      if (series >= col.valid.size()) {
        col.valid.GrowTo(series + 1);
        col.bits.GrowTo(series + 1);
      }
      col.valid.Set(series, true);
    } else if (series < col.valid.size()) {
      col.valid.Set(series, false);
    }
  }
  for (uint32_t i = 0; i < row.value_count; ++i) {
    const FieldValue& v = values[i];
    columns_[field_ids[v.field]].bits.Set(series, FieldValueBits(v, batch.fields()[v.field].type));
  }
  return true;
}

void LastValueCache::Prefetch(SeriesId series) const {
  if (series >= present_.size()) return;
  present_.Prefetch(series);
  __builtin_prefetch(&times_[series], 1);
  for (const Column& col : columns_) {
    if (series < col.valid.size()) {
      col.valid.Prefetch(series);
      col.bits.Prefetch(series);
    }
  }
}

void LastValueCache::OfferColumns(SeriesId series, int64_t time, const std::vector<uint64_t>& bits,
                                  const std::vector<std::string>& strings,
                                  const std::vector<uint8_t>& valid, const TableSchema& schema) {
  if (!Admit(series, time)) return;
  for (size_t c = 0; c < valid.size(); ++c) {
    if (!valid[c]) continue;
    const bool is_string = schema.fields()[c].type == ValueType::kString;
    Column& col = ColumnFor(static_cast<ColumnId>(c), series, is_string);
    col.valid.Set(series, true);
    if (is_string) {
      col.strings[series] = strings[c];
    } else {
      col.bits.Set(series, bits[c]);
    }
  }
}

bool LastValueCache::Get(SeriesId series, const TableSchema& schema, LastRow* out) const {
  if (!Has(series)) return false;
  out->time = times_[series];
  out->values.clear();
  out->strings.clear();
  for (size_t c = 0; c < columns_.size(); ++c) {
    const Column& col = columns_[c];
    if (!col.valid.Test(series)) continue;
    FieldValue v;
    v.field = static_cast<uint32_t>(c);
    const uint64_t bits = col.bits.Get(series);
    switch (schema.fields()[c].type) {
      case ValueType::kFloat64: std::memcpy(&v.f64, &bits, 8); break;
      case ValueType::kInt64: v.i64 = static_cast<int64_t>(bits); break;
      case ValueType::kUInt64: v.u64 = bits; break;
      case ValueType::kBool: v.b = bits != 0; break;
      case ValueType::kString:
        v.str.offset = static_cast<uint32_t>(out->strings.size());
        v.str.length = static_cast<uint32_t>(col.strings[series].size());
        out->strings += col.strings[series];
        break;
      default: break;
    }
    out->values.push_back(v);
  }
  return true;
}

void LastValueCache::GetColumns(std::span<const SeriesId> ids, std::span<const int> fields,
                                const TableSchema& schema, LastValues* out) const {
  const size_t n = ids.size();
  const size_t nfields = fields.size();
  bool strings = false;
  for (int f : fields) strings |= f >= 0 && schema.fields()[f].type == ValueType::kString;
  out->present.assign(n, 0);
  out->times.assign(n, 0);
  out->valid.assign(n * nfields, 0);
  out->bits.assign(n * nfields, 0);
  out->strings.resize(strings ? n * nfields : 0);
  for (size_t i = 0; i < n; ++i) {
    const SeriesId s = ids[i];
    if (!Has(s)) continue;
    out->present[i] = 1;
    out->times[i] = times_[s];
    for (size_t f = 0; f < nfields; ++f) {
      const int c = fields[f];
      if (c < 0 || static_cast<size_t>(c) >= columns_.size() || !columns_[c].valid.Test(s)) continue;
      const size_t slot = i * nfields + f;
      out->valid[slot] = 1;
      const ValueType type = schema.fields()[c].type;
      if (type == ValueType::kString) {
        out->strings[slot] = columns_[c].strings[s];
      } else {
        const uint64_t bits = columns_[c].bits.Get(s);
        out->bits[slot] = type == ValueType::kBool ? (bits != 0 ? 1 : 0) : bits;
      }
    }
  }
}

void LastValueCache::Invalidate(SeriesId series) {
  if (!Has(series)) return;
  present_.Set(series, false);
  for (Column& col : columns_) {
    if (series < col.valid.size()) col.valid.Set(series, false);
    if (series < col.strings.size()) std::string().swap(col.strings[series]);
  }
}

size_t LastValueCache::MemoryUsage() const {
  size_t bytes = present_.MemoryUsage() + times_.MemoryUsage();
  for (const Column& col : columns_) {
    bytes += col.bits.MemoryUsage() + col.valid.MemoryUsage() + col.strings.MemoryUsage();
    for (size_t i = 0; i < col.strings.size(); ++i) {
      bytes += col.strings[i].capacity() > 15 ? col.strings[i].capacity() + 1 : 0;
    }
  }
  return bytes;
}

}  // namespace gnomon::storage
