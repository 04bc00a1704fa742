// Window binder: the f(...) OVER (...) calls of a SELECT become one Window node, placed after
// grouping (so windows see the aggregated rows, as SQL says) and before the select list.
#pragma once

#include <vector>

#include "src/base/result.h"
#include "src/query/binder/expression_binder.h"
#include "src/query/logical/logical_plan.h"
#include "src/query/parser/ast.h"

namespace gnomon::query {

// f(...) OVER (...): what CollectCalls gathers for BindWindows.
bool IsWindowCall(const FunctionExpression& f);

// A Window node over `input` computing `calls`, bound against *context (the input's columns);
// afterwards *context describes the node's output, where each call is a computed column.
// `windows` is the query's WINDOW clause.
Result<LogicalPtr> BindWindows(const DistinctCalls& calls,
                               const std::vector<NamedWindow>& windows, LogicalPtr input, BindContext* context);

}  // namespace gnomon::query
