// Evaluates bound expressions over chunks: vectorised loops for the common shapes (columns,
// constants, numeric comparisons with a constant, AND/OR, time bucketing), and a row-at-a-time
// path that covers every expression.
#pragma once

#include <cstdint>
#include <vector>

#include "src/base/result.h"
#include "src/query/execution/value.h"
#include "src/query/binder/bound_expression.h"

namespace gnomon::query {

Status Evaluate(const BoundExpr& e, const Chunk& chunk, Vector* out);
// Row indexes where the predicate is true (NULL and false both drop the row).
Status EvaluateFilter(const BoundExpr& e, const Chunk& chunk, std::vector<uint32_t>* selection);
Result<Value> EvalRow(const BoundExpr& e, const Chunk& chunk, size_t row);
// Evaluates an expression that uses no columns.
Result<Value> EvalConstant(const BoundExpr& e);

// Keeps only the selected rows of every column.
void SelectRows(Chunk* chunk, const std::vector<uint32_t>& selection);

}  // namespace gnomon::query
