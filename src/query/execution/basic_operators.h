// Row-shaping operators: filter, projection, limit/offset, sort, distinct, and chunk sources.
#pragma once

#include <algorithm>

#include <string>
#include <unordered_set>
#include <vector>

#include "src/query/execution/operator.h"
#include "src/query/binder/bound_expression.h"

namespace gnomon::query {

class FilterOperator final : public Operator {
 public:
  FilterOperator(OperatorPtr child, BoundExprPtr predicate, std::string text);
  std::string Describe() const override { return "Filter: " + text_; }
  std::vector<const Operator*> children() const override { return {child_.get()}; }

 protected:
  Status NextImpl(Chunk* chunk, bool* done) override;

 private:
  OperatorPtr child_;
  BoundExprPtr predicate_;
  std::string text_;
};

class ProjectionOperator final : public Operator {
 public:
  ProjectionOperator(OperatorPtr child, std::vector<BoundExprPtr> exprs, std::vector<std::string> names);
  std::string Describe() const override;
  std::vector<const Operator*> children() const override { return {child_.get()}; }
  Operator* child() { return child_.get(); }
  // Whether some expression refers to input column c.
  bool ReadsInput(size_t c) const { return c < input_uses_.size() && input_uses_[c] > 0; }
  // Whether every output column is an input column passed on as it is (no expression evaluated).
  bool MovesEveryColumn() const {
    return std::all_of(move_from_.begin(), move_from_.end(), [](int c) { return c >= 0; });
  }

 protected:
  Status NextImpl(Chunk* chunk, bool* done) override;

 private:
  OperatorPtr child_;
  std::vector<BoundExprPtr> exprs_;
  // Per expression: the input column it can take over (a column reference no other expression
  // uses), or -1 to evaluate.
  std::vector<int> move_from_;
  std::vector<int> input_uses_;  // per input column: how many column references name it
};

class LimitOperator final : public Operator {
 public:
  LimitOperator(OperatorPtr child, int64_t limit, int64_t offset);  // limit < 0: none
  std::string Describe() const override;
  std::vector<const Operator*> children() const override { return {child_.get()}; }

 protected:
  Status NextImpl(Chunk* chunk, bool* done) override;

 private:
  OperatorPtr child_;
  int64_t limit_;
  int64_t offset_;
  int64_t skipped_ = 0;
  int64_t emitted_ = 0;
};

struct SortKey {
  int column;
  bool descending = false;
  bool nulls_first = false;
};

// Three-way comparison of row a of x with row b of y (vectors of one type) by key k.
int CompareKey(const Vector& x, uint32_t a, const Vector& y, uint32_t b, const SortKey& k);
// Three-way comparison of rows a and b of `c` by `keys` (NULLs placed as each key says).
int CompareRows(const Chunk& c, uint32_t a, uint32_t b, const std::vector<SortKey>& keys);
// dst = the rows idx[0..n) of src (same type; NULLs kept).
void GatherRows(const Vector& src, const uint32_t* idx, size_t n, Vector* dst);

// DISTINCT over the given key columns (every visible column for DISTINCT; the DISTINCT ON keys
// otherwise): the first row of each key, in input order.
class DistinctOperator final : public Operator {
 public:
  DistinctOperator(OperatorPtr child, std::vector<int> key_columns, bool on);
  std::string Describe() const override { return on_ ? "Distinct On" : "Distinct"; }
  std::vector<const Operator*> children() const override { return {child_.get()}; }

 protected:
  Status NextImpl(Chunk* chunk, bool* done) override;

 private:
  OperatorPtr child_;
  std::vector<int> key_columns_;
  bool on_;
  std::unordered_set<std::string> seen_;
};

// Produces an already computed chunk (a subquery's result, a SHOW answer, the single empty row
// of a SELECT without FROM).
class ChunkSourceOperator final : public Operator {
 public:
  ChunkSourceOperator(std::vector<ResultColumn> schema, Chunk chunk, std::string description);
  std::string Describe() const override { return description_; }

 protected:
  Status NextImpl(Chunk* chunk, bool* done) override;

 private:
  Chunk chunk_;
  std::string description_;
  bool emitted_ = false;
};

// Drops trailing columns (sort keys that were not selected).
class TrimColumnsOperator final : public Operator {
 public:
  TrimColumnsOperator(OperatorPtr child, size_t keep);
  std::string Describe() const override { return "Project: drop sort keys"; }
  std::vector<const Operator*> children() const override { return {child_.get()}; }

 protected:
  Status NextImpl(Chunk* chunk, bool* done) override;

 private:
  OperatorPtr child_;
  size_t keep_;
};

// Serialises row `row` of the first n columns into a hashable key.
void AppendRowKey(const Chunk& chunk, size_t row, size_t n, std::string* key);
// The same over chosen columns.
void AppendRowKeyOf(const Chunk& chunk, size_t row, const std::vector<int>& columns, std::string* key);

}  // namespace gnomon::query
