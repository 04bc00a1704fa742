// An operator's whole output, sorted, without first concatenating it into one chunk: the chunks
// stay as they came and a row is named by (chunk, row). When the first sort key is an integer or
// a time with no NULLs (ORDER BY time, InfluxQL's point order) its value sits beside each
// reference, so most comparisons read no column; keys that hold one value per chunk (a series'
// tags, as constant vectors) rank the chunks once; the other keys are compared only on a tie.
// Emitting moves the values out (each row leaves once), so strings are not copied again. Input
// may hold constant vectors (a series' tags, stored once per chunk); the output never does.
#pragma once

#include <cstdint>
#include <vector>

#include "src/query/execution/basic_operators.h"
#include "src/query/execution/operator.h"

namespace gnomon::query {

class SortedRows {
 public:
  // Drains `input` (its memory accounted in ctx).
  Status Load(Operator* input, ExecutionContext* ctx);
  // Orders the rows by `keys`, stable (ties keep their input order); with top_n >= 0 only the
  // first top_n are kept.
  void Sort(const std::vector<SortKey>& keys, int64_t top_n);
  size_t size() const { return refs_.size(); }
  // Rows [begin, end) of the order into `chunk` (one column per schema entry). Each row may be
  // emitted once: its values are moved out.
  void Emit(size_t begin, size_t end, const std::vector<ResultColumn>& schema, Chunk* chunk);

 private:
  struct Ref {
    int64_t key;  // the first sort key's value, when it is an integer or time without NULLs
    uint32_t chunk;
    uint32_t row;
  };
  bool FirstKeyIsFast(const SortKey& key) const;
  bool ConstantInEveryChunk(const SortKey& key) const;
  // Each chunk's place in the order of its (constant) values of `keys`; equal values, equal rank.
  std::vector<uint32_t> RankChunks(const std::vector<SortKey>& keys) const;

  std::vector<Chunk> chunks_;
  std::vector<Ref> refs_;
  std::vector<bool> has_validity_;  // per column: some chunk has a validity vector (NULLs)
};

}  // namespace gnomon::query
