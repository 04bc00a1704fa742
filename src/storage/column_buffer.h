// Column buffers: the decoded form of a series' rows that memtable reads, flushes and segment
// writes pass around.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "src/base/value_type.h"

namespace gnomon::storage {

// Values of one field column for one series; numeric values stored as their 8-byte patterns.
struct ColumnBuffer {
  ValueType type = ValueType::kNull;
  std::vector<uint64_t> bits;          // numeric/bool values, one per row (0 where null)
  std::vector<std::string> strings;    // string values, one per row ("" where null)
  std::vector<uint8_t> validity;       // one per row; empty while every row has a value
  size_t null_count = 0;
};

// Makes `c` an absent column (kNull, no rows), keeping its vectors' capacity for reuse.
inline void ClearToAbsent(ColumnBuffer* c) {
  c->type = ValueType::kNull;
  c->bits.clear();
  c->strings.clear();
  c->validity.clear();
  c->null_count = 0;
}

// Rows of one series sorted by time with unique times (last write wins), materialised for a read
// or a flush. Columns indexed by ColumnId, each exactly `times.size()` long (or absent: type kNull).
struct SortedSeries {
  std::vector<int64_t> times;
  std::vector<ColumnBuffer> columns;
};

}  // namespace gnomon::storage
