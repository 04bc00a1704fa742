// Optimizer: a fixed sequence of named rewrite rules over a logical plan. Each rule matches a
// shape (a Filter over a Get, an Aggregate over a Get, Limit over Sort, ...) wherever it occurs,
// so a fast path fires however the query was written: directly, through a CTE or a subquery,
// or from another language compiling into the same plan.
#pragma once

#include <string>
#include <vector>

#include "src/query/logical/logical_plan.h"

namespace gnomon::query {

struct OptimizerRule {
  const char* name;
  // Rewrites the plan under *root; true if it changed anything.
  bool (*apply)(LogicalPtr* root);
};

// The rules in the order they run (optimizer.cc says why that order).
const std::vector<OptimizerRule>& OptimizerRules();

// Runs every rule once, in order; `fired` gets the names of those that changed the plan.
void Optimize(LogicalPtr* root, std::vector<std::string>* fired);

// Calls fn on every node slot under *root, children before their parent.
template <typename Fn>
void ForEachSlotBottomUp(LogicalPtr* root, Fn&& fn) {
  for (LogicalPtr& c : (*root)->children) ForEachSlotBottomUp(&c, fn);
  fn(root);
}

}  // namespace gnomon::query
