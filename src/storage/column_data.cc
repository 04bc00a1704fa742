#include "src/storage/column_data.h"

#include <cstring>

#include "src/storage/row_selection.h"

namespace gnomon::storage {

void DecodedColumn::Clear() {
  type = ValueType::kNull;
  i64.clear();
  f64.clear();
  u64.clear();
  b.clear();
  str.clear();
  arena.clear();
  owned.clear();
  validity.clear();
}

ColumnVector DecodedColumn::View(size_t begin) const {
  ColumnVector v;
  v.type = type;
  switch (type) {
    case ValueType::kFloat64: v.f64 = f64.data() + begin; break;
    case ValueType::kInt64: v.i64 = i64.data() + begin; break;
    case ValueType::kUInt64: v.u64 = u64.data() + begin; break;
    case ValueType::kBool: v.b = b.data() + begin; break;
    case ValueType::kString: v.str = str.data() + begin; break;
    default: break;
  }
  if (!validity.empty()) v.validity = validity.data() + begin;
  return v;
}

void DecodedColumn::AssignNulls(ValueType t, size_t rows) {
  Clear();
  type = t;
  switch (t) {
    case ValueType::kFloat64: f64.assign(rows, 0); break;
    case ValueType::kInt64: i64.assign(rows, 0); break;
    case ValueType::kUInt64: u64.assign(rows, 0); break;
    case ValueType::kBool: b.assign(rows, 0); break;
    case ValueType::kString: str.assign(rows, {}); break;
    default: break;  // kNull: an unknown column, only its validity (all zero) is meaningful
  }
  validity.assign(rows, 0);
}

void DecodedColumn::AssignFrom(const ColumnBuffer* src, size_t rows) {
  if (src == nullptr || src->type == ValueType::kNull) {
    // The caller sets the schema type; until then an all-null column of unknown type.
    AssignNulls(type == ValueType::kNull ? ValueType::kFloat64 : type, rows);
    return;
  }
  Clear();
  type = src->type;
  switch (type) {
    case ValueType::kFloat64:
      f64.resize(rows);
      std::memcpy(f64.data(), src->bits.data(), rows * 8);
      break;
    case ValueType::kInt64:
      i64.resize(rows);
      std::memcpy(i64.data(), src->bits.data(), rows * 8);
      break;
    case ValueType::kUInt64: u64.assign(src->bits.begin(), src->bits.begin() + rows); break;
    case ValueType::kBool:
      b.resize(rows);
      for (size_t i = 0; i < rows; ++i) b[i] = static_cast<uint8_t>(src->bits[i]);
      break;
    case ValueType::kString:
      owned.assign(src->strings.begin(), src->strings.begin() + rows);
      str.resize(rows);
      for (size_t i = 0; i < rows; ++i) str[i] = owned[i];
      break;
    default: break;
  }
  if (!src->validity.empty()) validity.assign(src->validity.begin(), src->validity.begin() + rows);
}

namespace {

template <typename T>
void CopyRanges(const std::vector<T>& src, const std::vector<std::pair<uint32_t, uint32_t>>& ranges,
                uint32_t offset, std::vector<T>* out) {
  out->clear();
  if (src.empty()) return;
  for (const auto& [lo, hi] : ranges) out->insert(out->end(), src.begin() + offset + lo, src.begin() + offset + hi);
}

}  // namespace

void DecodedColumn::AssignRanges(const DecodedColumn& src, const std::vector<std::pair<uint32_t, uint32_t>>& ranges,
                                 uint32_t offset) {
  Clear();
  type = src.type;
  CopyRanges(src.i64, ranges, offset, &i64);
  CopyRanges(src.f64, ranges, offset, &f64);
  CopyRanges(src.u64, ranges, offset, &u64);
  CopyRanges(src.b, ranges, offset, &b);
  CopyRanges(src.validity, ranges, offset, &validity);
  if (src.str.empty()) return;
  size_t bytes = 0;
  for (const auto& [lo, hi] : ranges) {
    for (uint32_t r = lo; r < hi; ++r) bytes += src.str[offset + r].size();
  }
  arena.reserve(bytes);  // views below point into it: it must not move
  for (const auto& [lo, hi] : ranges) {
    for (uint32_t r = lo; r < hi; ++r) {
      const std::string_view v = src.str[offset + r];
      str.emplace_back(arena.data() + arena.size(), v.size());
      arena.append(v);
    }
  }
}

void DecodedColumn::KeepRows(const std::vector<uint8_t>& keep) {
  KeepFlagged(&i64, keep);
  KeepFlagged(&f64, keep);
  KeepFlagged(&u64, keep);
  KeepFlagged(&b, keep);
  KeepFlagged(&str, keep);
  KeepFlagged(&validity, keep);
}

void DecodedColumn::KeepRowRange(size_t begin, size_t end) {
  KeepRange(&i64, begin, end);
  KeepRange(&f64, begin, end);
  KeepRange(&u64, begin, end);
  KeepRange(&b, begin, end);
  KeepRange(&str, begin, end);
  KeepRange(&validity, begin, end);
}

}  // namespace gnomon::storage
