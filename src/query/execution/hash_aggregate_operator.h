// HashAggregateOperator: GROUP BY over any input. Output: the group keys, then the aggregates.
#pragma once

#include <string>
#include <unordered_map>
#include <vector>

#include "src/query/execution/aggregate_function.h"
#include "src/query/execution/operator.h"

namespace gnomon::query {

class HashAggregateOperator final : public Operator {
 public:
  // `keys` and the aggregates' arguments are bound against child->schema(). key_names and
  // aggregates' text name the output columns.
  HashAggregateOperator(OperatorPtr child, std::vector<BoundExprPtr> keys,
                        std::vector<std::string> key_names, std::vector<AggregateSpec> aggregates,
                        ExecutionContext* ctx);
  std::string Describe() const override;
  std::vector<const Operator*> children() const override { return {child_.get()}; }

 protected:
  Status NextImpl(Chunk* chunk, bool* done) override;

 private:
  Status Consume();

  OperatorPtr child_;
  std::vector<BoundExprPtr> keys_;
  std::vector<AggregateSpec> aggs_;
  ExecutionContext* ctx_;
  bool consumed_ = false;
  std::unordered_map<std::string, uint32_t> groups_;
  std::vector<std::vector<Value>> group_keys_;   // per group
  std::vector<std::vector<AggState>> states_;    // per group, per aggregate
  size_t emitted_ = 0;
};

// Builds the output chunk rows [begin, end) from group keys and states (shared with the
// bucket aggregate fast path).
Status EmitGroups(const std::vector<ResultColumn>& schema, const std::vector<AggregateSpec>& aggs,
                  const std::vector<std::vector<Value>>& keys,
                  const std::vector<std::vector<AggState>>& states,
                  const std::vector<uint32_t>& order, size_t begin, size_t end, Chunk* out);

}  // namespace gnomon::query
