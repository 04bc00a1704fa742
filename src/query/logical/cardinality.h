// Row-count estimates for logical plans, for choices between plans (a hash join's build side).
// Rough by design: a table is assumed to hold a nominal number of rows per series over its time
// span, so estimates compare well between inputs of one query, not as absolute counts.
#pragma once

#include "src/query/logical/logical_plan.h"

namespace gnomon::query {

double EstimateRows(const LogicalNode& node);

}  // namespace gnomon::query
