// SetOperationOperator: UNION [ALL], INTERSECT [ALL], EXCEPT [ALL] of two inputs with the same
// column types. Rows compare as DISTINCT compares them (NULLs equal). UNION streams both inputs;
// INTERSECT and EXCEPT read the right input whole into counts, then stream the left.
#pragma once

#include <string>
#include <unordered_map>
#include <unordered_set>

#include "src/query/execution/operator.h"

namespace gnomon::query {

enum class SetOperationKind : uint8_t { kUnionAll, kUnion, kIntersect, kIntersectAll, kExcept, kExceptAll };

const char* SetOperationName(SetOperationKind kind);

class SetOperationOperator final : public Operator {
 public:
  SetOperationOperator(OperatorPtr left, OperatorPtr right, SetOperationKind kind, ExecutionContext* ctx);
  std::string Describe() const override { return SetOperationName(kind_); }
  std::vector<const Operator*> children() const override { return {left_.get(), right_.get()}; }

 protected:
  Status NextImpl(Chunk* chunk, bool* done) override;

 private:
  Status CountRight();
  // Whether row `r` of a left chunk (bytes `key`) is emitted.
  bool Keep(const std::string& key);

  OperatorPtr left_, right_;
  SetOperationKind kind_;
  ExecutionContext* ctx_;
  bool left_done_ = false, counted_ = false;
  std::unordered_set<std::string> emitted_;            // the distinct forms: rows already emitted
  std::unordered_map<std::string, int64_t> right_counts_;  // INTERSECT / EXCEPT: right rows by value
  std::vector<int> all_columns_;
};

}  // namespace gnomon::query
