// How a logical join runs: its conditions split into hash keys (equalities between one side and
// the other), the ASOF time comparison, and a residual checked per candidate pair; and which
// side is built (the smaller by estimate, where the join kind allows either).
#pragma once

#include "src/base/result.h"
#include "src/query/execution/hash_join_operator.h"
#include "src/query/logical/logical_plan.h"

namespace gnomon::query {

// Takes the join's conditions; call before its children are planned (it reads their estimates).
Result<HashJoinSpec> PlanJoinSpec(LogicalJoin* join);

// Whether the join can merge its inputs instead (MergeJoinOperator): an inner or left join on one
// key, nothing else to check, both inputs sorted ascending by their key column (NULLs last).
// Fills the key columns.
bool CanMergeJoin(const HashJoinSpec& spec, const LogicalJoin& join, int* left_key, int* right_key);

}  // namespace gnomon::query
