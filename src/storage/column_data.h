// DecodedColumn: one column's values for a run of rows in typed vectors, as scans hand them to the
// query layer (ColumnVector points into it).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "src/base/value_type.h"
#include "src/storage/memtable.h"
#include "src/storage/scan.h"

namespace gnomon::storage {

struct DecodedColumn {
  ValueType type = ValueType::kNull;
  std::vector<int64_t> i64;
  std::vector<double> f64;
  std::vector<uint64_t> u64;
  std::vector<uint8_t> b;
  std::vector<std::string_view> str;
  std::string arena;               // backing bytes of `str` for decoded blocks
  std::vector<std::string> owned;  // backing strings of `str` for memtable rows
  std::vector<uint8_t> validity;   // empty: all rows valid

  void Clear();
  // Fills a ColumnVector pointing at rows [begin, begin + n).
  ColumnVector View(size_t begin) const;
  // Copies rows from a memtable column (or all-null rows when src is null/absent).
  void AssignFrom(const ColumnBuffer* src, size_t rows);
  // Makes a column of `rows` nulls of the given type.
  void AssignNulls(ValueType type, size_t rows);
  // Becomes a copy of rows `ranges` of `src` (each [begin, end) shifted by `offset`), concatenated:
  // a packed series' rows cut out of its decoded pack. String bytes are copied into `arena`.
  void AssignRanges(const DecodedColumn& src, const std::vector<std::pair<uint32_t, uint32_t>>& ranges,
                    uint32_t offset);
  // Keeps the rows whose flag is set / the rows [begin, end).
  void KeepRows(const std::vector<uint8_t>& keep);
  void KeepRowRange(size_t begin, size_t end);
};

}  // namespace gnomon::storage
