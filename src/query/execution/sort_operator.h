// ORDER BY: sorts all input, keeping only the first `top_n` rows when top_n >= 0 (a partial sort
// skips ordering what LIMIT drops; a bounded heap would help huge inputs more).
#pragma once

#include <string>
#include <vector>

#include "src/query/execution/sorted_rows.h"

namespace gnomon::query {

class SortOperator final : public Operator {
 public:
  SortOperator(OperatorPtr child, std::vector<SortKey> keys, int64_t top_n, ExecutionContext* ctx,
               std::string text);
  std::string Describe() const override;
  std::vector<const Operator*> children() const override { return {child_.get()}; }

 protected:
  Status NextImpl(Chunk* chunk, bool* done) override;

 private:
  OperatorPtr child_;
  std::vector<SortKey> keys_;
  int64_t top_n_;
  ExecutionContext* ctx_;
  std::string text_;
  bool sorted_ = false;
  SortedRows rows_;
  size_t emitted_ = 0;
};

}  // namespace gnomon::query
