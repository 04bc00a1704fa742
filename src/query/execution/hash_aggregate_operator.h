// HashAggregateOperator: GROUP BY over any input. Output: the group keys, then the aggregates.
#pragma once

#include <string>
#include <unordered_map>
#include <vector>

#include "src/query/execution/aggregate_function.h"
#include "src/query/execution/grouped_aggregate_operator.h"
#include "src/query/execution/operator.h"

namespace gnomon::query {

class HashAggregateOperator final : public GroupedAggregateOperator {
 public:
  // `keys` and the aggregates' arguments are bound against child->schema(). key_names and
  // aggregates' text name the output columns.
  HashAggregateOperator(OperatorPtr child, std::vector<BoundExprPtr> keys,
                        std::vector<std::string> key_names, std::vector<AggregateSpec> aggregates,
                        ExecutionContext* ctx);
  std::string Describe() const override;
  std::vector<const Operator*> children() const override { return {child_.get()}; }

 protected:
  Status Compute() override;

 private:
  OperatorPtr child_;
  std::vector<BoundExprPtr> keys_;
  ExecutionContext* ctx_;
  std::unordered_map<std::string, uint32_t> groups_;
};

}  // namespace gnomon::query
