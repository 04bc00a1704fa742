// Where each row's window frame starts and ends, within its partition of the sorted rows.
#pragma once

#include <cstdint>
#include <vector>

#include "src/base/result.h"
#include "src/query/execution/value.h"
#include "src/query/execution/window_function.h"

namespace gnomon::query {

// One partition of the rows sorted by (PARTITION BY, ORDER BY): positions [begin, end) of the
// sort order, and for each position the peer group (rows equal on every ORDER BY key) it is in.
struct WindowPartition {
  size_t begin = 0, end = 0;
  std::vector<uint32_t> peer_begin;  // by position - begin: where its peer group starts
  std::vector<uint32_t> peer_end;    // ... and ends (absolute positions)
  std::vector<uint32_t> group;       // its peer group's number within the partition
  std::vector<uint32_t> group_begin; // by group number: first position
};

// The frame [start, end) (absolute positions; start >= end is empty) of every position of a
// partition. `order_key` is the single ORDER BY key's values by input row (for RANGE with an
// offset; otherwise unused), `order` the sorted input rows, `key` that key's direction.
Status ComputeFrames(const BoundFrame& frame, const WindowPartition& part, const std::vector<uint32_t>& order,
                     const Vector* order_key, const SortKey& key, bool has_order_by, std::vector<uint32_t>* start,
                     std::vector<uint32_t>* end);

}  // namespace gnomon::query
