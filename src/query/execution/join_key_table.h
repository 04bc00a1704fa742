// JoinKeyTable: groups a hash join's build rows by their key values, and finds a probe row's
// group. Keys are hashed as typed values (no per-row key strings) into an open-addressing table
// of groups; a hash match is confirmed by comparing the values with the group's first row. An
// integer and a timestamp compare by their int64; a float NaN equals NaN, and -0.0 equals 0.0.
#pragma once

#include <cstdint>
#include <vector>

#include "src/query/execution/value.h"

namespace gnomon::query {

class JoinKeyTable {
 public:
  // The build side's key columns (one Vector per key, all `rows` long); kept by pointer.
  explicit JoinKeyTable(const std::vector<Vector>* build_keys) : build_keys_(build_keys) {}

  // Per row of `keys`: its hash, and whether no key is NULL (a NULL key matches nothing).
  static void HashRows(const std::vector<Vector>& keys, size_t rows, std::vector<uint64_t>* hashes,
                       std::vector<uint8_t>* valid);

  // The group of build row `row` (a new one for unseen keys).
  uint32_t Insert(uint64_t hash, uint32_t row);
  // The group whose keys equal row `row` of `keys`, or -1.
  int64_t Find(uint64_t hash, const std::vector<Vector>& keys, size_t row) const;
  size_t groups() const { return group_row_.size(); }
  size_t memory_bytes() const { return slots_.size() * sizeof(int32_t) + group_row_.size() * 12; }

 private:
  static bool Equal(const std::vector<Vector>& a, size_t i, const std::vector<Vector>& b, size_t j);
  void Grow();

  const std::vector<Vector>* build_keys_;
  std::vector<int32_t> slots_;  // group id, or -1 for an empty slot; size a power of two
  std::vector<uint64_t> group_hash_;
  std::vector<uint32_t> group_row_;  // each group's first build row
};

}  // namespace gnomon::query
