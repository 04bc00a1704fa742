// Physical planner: an optimized logical plan becomes a tree of execution operators, one per
// node (a Get with residual filters becomes a scan with its filter inside or above it).
#pragma once

#include "src/base/result.h"
#include "src/query/execution/operator.h"
#include "src/query/logical/logical_plan.h"

namespace gnomon::query {

// Consumes `plan`. `threads`: what an operator may use for its own work.
Result<OperatorPtr> PlanPhysical(LogicalPtr plan, ExecutionContext* ctx, int threads);

}  // namespace gnomon::query
