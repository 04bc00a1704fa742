// HashJoinOperator: every join kind. One input (the build side, the smaller by estimate) is read
// whole into a hash table on its equality keys; the other streams past it. Conditions that are
// not equalities are checked on each candidate pair; with no equality at all every build row is
// a candidate (a nested loop). ASOF joins keep each key's build rows sorted by time and take
// the nearest one. Output: the left input's columns, then the right's (semi and anti: the
// left's only), whichever side was built.
#pragma once

#include <deque>
#include <string>
#include <vector>

#include "src/query/binder/bound_expression.h"
#include "src/query/execution/join_key_table.h"
#include "src/query/execution/operator.h"

namespace gnomon::query {

enum class JoinKind : uint8_t {
  kInner,
  kLeft,
  kRight,
  kFull,
  kSemi,  // left rows with a match (EXISTS, IN)
  kAnti,  // left rows without one (NOT EXISTS, NOT IN)
};

const char* JoinKindName(JoinKind kind);

struct HashJoinSpec {
  JoinKind kind = JoinKind::kInner;
  bool null_aware = false;  // kAnti as NOT IN
  // Equality keys: left_keys[i] over the left input = right_keys[i] over the right input, of one
  // type (the planner casts).
  std::vector<BoundExprPtr> left_keys, right_keys;
  BoundExprPtr residual;  // over left columns then right ones; null when none
  // ASOF: left_time op right_time picks, per left row, the nearest right row that satisfies it.
  bool asof = false;
  BoundExprPtr left_time, right_time;
  BinaryOp asof_op = BinaryOp::kGreaterEqual;
  bool build_left = false;  // only for inner/left/right/full, not ASOF
  std::string text;         // for EXPLAIN
};

class HashJoinOperator final : public Operator {
 public:
  HashJoinOperator(OperatorPtr left, OperatorPtr right, HashJoinSpec spec, ExecutionContext* ctx);
  std::string Describe() const override;
  std::vector<const Operator*> children() const override { return {left_.get(), right_.get()}; }

 protected:
  Status NextImpl(Chunk* chunk, bool* done) override;

 private:
  Operator* build() const { return spec_.build_left ? left_.get() : right_.get(); }
  Operator* probe() const { return spec_.build_left ? right_.get() : left_.get(); }
  bool EmitUnmatchedProbe() const;
  bool EmitUnmatchedBuild() const;

  Status Build();
  Status NextProbeChunk(bool* exhausted);
  // Candidate pairs of the current probe chunk from the cursor on, at most kChunkRows.
  void CollectPairs(std::vector<uint32_t>* probe_rows, std::vector<uint32_t>* build_rows);
  int64_t AsofMatch(uint32_t probe_row) const;
  Status EmitPairs(const std::vector<uint32_t>& probe_rows, const std::vector<uint32_t>& build_rows);
  void EmitProbeRows(const std::vector<uint32_t>& rows, bool with_nulls);
  void EmitUnmatchedBuildRows();
  // Output columns from probe rows and build rows (kNullRow: that side is NULL); the right
  // input's columns only `with_right` (semi and anti joins emit the left's alone).
  Chunk Combine(const std::vector<uint32_t>& probe_rows, const std::vector<uint32_t>& build_rows,
                bool with_right) const;

  OperatorPtr left_, right_;
  HashJoinSpec spec_;
  ExecutionContext* ctx_;

  // Build side, read whole.
  bool built_ = false;
  Chunk build_rows_;
  std::vector<Vector> build_keys_;                    // the build rows' key values
  JoinKeyTable table_{&build_keys_};                  // key values -> group
  std::vector<uint32_t> group_begin_;                 // group g's rows: group_rows_[begin[g], begin[g+1])
  std::vector<uint32_t> group_rows_;                  // ASOF: each group's rows in time order
  Vector build_time_;                                 // ASOF: each build row's time
  std::vector<uint8_t> build_matched_;
  bool build_has_null_key_ = false;

  // Current probe chunk and where pairing stands in it.
  Chunk probe_chunk_;
  Vector probe_time_;
  std::vector<int64_t> probe_group_;  // per row: group, or -1 (no key match / NULL key)
  std::vector<uint8_t> probe_key_valid_;  // per row: no key is NULL
  std::vector<uint8_t> probe_matched_;
  uint32_t cursor_row_ = 0, cursor_pos_ = 0;
  bool have_probe_ = false, probe_done_ = false, finished_ = false;
  size_t unmatched_build_cursor_ = 0;
  std::deque<Chunk> ready_;
};

}  // namespace gnomon::query
