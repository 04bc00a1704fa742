// The window functions that compute over each row's frame: first/last/nth_value and the
// aggregates count, sum, avg, min, max. Sliding frames cost O(1) (counts, sums from prefix
// sums) or O(log n) (min, max from a segment tree) per row, whatever the frame's width.
#pragma once

#include <cstdint>
#include <vector>

#include "src/base/status.h"
#include "src/query/execution/value.h"
#include "src/query/execution/window_frame.h"
#include "src/query/execution/window_function.h"

namespace gnomon::query {

struct FramedPartition {
  const WindowPartition* part;
  const std::vector<uint32_t>* order;  // sorted input rows
  const std::vector<uint32_t>* start;  // frame start by position - part->begin
  const std::vector<uint32_t>* end;    // frame end (exclusive)
};

// Writes (*out)[input row] for every row of the partition. `args` holds the call's evaluated
// arguments, by input row.
Status ComputeFrameFunction(const WindowCall& call, const FramedPartition& fp, const Chunk& args,
                            std::vector<Value>* out);

}  // namespace gnomon::query
