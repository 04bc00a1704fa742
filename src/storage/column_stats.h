// Statistics of a column's values (count, min, max, sum; exact for int64): what segments store
// per chunk and hour slice, and what memtable pages offer in place of their rows.
#pragma once

#include <cstddef>
#include <cstdint>

#include "src/base/value_type.h"
#include "src/storage/column_buffer.h"
#include "src/storage/scan.h"

namespace gnomon::storage {

// Over the non-null values of `rows` values (8-byte patterns; `validity` one byte a row, nullptr:
// all valid). For strings only the count (values may be nullptr).
ColumnStats ComputeStats(ValueType type, const uint64_t* values, const uint8_t* validity, size_t rows);
// Over rows [begin, begin + rows) of `col`.
ColumnStats ComputeStats(const ColumnBuffer& col, size_t begin, size_t rows);

}  // namespace gnomon::storage
