// The slice statistics block of a column chunk: the statistics of each hour slice of a row group
// (docs/format/segment.md, "Slice statistics").
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "src/base/status.h"
#include "src/base/value_type.h"
#include "src/storage/scan.h"

namespace gnomon::storage {

// Appends one block holding `stats` (one entry per slice, in order), in the current segment
// format: column-major integer and float blocks where those are smaller than one record per
// slice.
void EncodeSliceStats(ValueType type, std::span<const ColumnStats> stats, std::string* out);

// Replaces out[0..n) with the `n` slices' statistics of `block`, written by a file of format
// `version`. Blocks of files before version 6 are records back to back; of those only the first
// `needed` are decoded (the rest stay default). Corruption names the reason; the caller adds the
// file and offset.
Status DecodeSliceStats(ValueType type, uint32_t version, std::string_view block, size_t n, size_t needed,
                        std::vector<ColumnStats>* out);

}  // namespace gnomon::storage
