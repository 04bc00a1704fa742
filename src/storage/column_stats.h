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
// all valid). For strings only the count (values may be nullptr). A float sum is exact only up
// to rounding: its additions are not done in row order.
ColumnStats ComputeStats(ValueType type, const uint64_t* values, const uint8_t* validity, size_t rows);
// Over rows [begin, begin + rows) of `col`.
ColumnStats ComputeStats(const ColumnBuffer& col, size_t begin, size_t rows);
// Adds the statistics `s` of more rows of a column of `type` to *into, as ComputeStats over both
// sets of rows would have made them (a float sum up to rounding; an int sum stays exact while
// both are and the total fits). Hour-slice head sums are dropped.
void MergeColumnStats(ValueType type, const ColumnStats& s, ColumnStats* into);

}  // namespace gnomon::storage
