// Vectorised forms of the expressions the row-at-a-time evaluator would otherwise walk per row:
// float arithmetic (+ - * /) and casts to double over whole vectors, and a searched CASE whose
// conditions and branches evaluate as vectors and whose rows then take their branch's value.
// Each returns false, having written nothing the caller uses, when its shape or an operand's type
// is not one it handles, or when a vector evaluation failed: the caller then evaluates row by
// row, so errors (division by zero) surface exactly where a row would meet them.
#pragma once

#include "src/query/binder/bound_expression.h"
#include "src/query/execution/value.h"

namespace gnomon::query {

bool TryVectorArith(const BoundExpr& e, const Chunk& chunk, Vector* out);
bool TryVectorCast(const BoundExpr& e, const Chunk& chunk, Vector* out);
bool TryVectorCase(const BoundExpr& e, const Chunk& chunk, Vector* out);

}  // namespace gnomon::query
