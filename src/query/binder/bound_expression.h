// Bound expressions: parsed expressions resolved against an input schema — column references
// become indexes into the input chunk, types are known, time literals are parsed.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "src/query/execution/value.h"
#include "src/query/parser/ast_expression.h"

namespace gnomon::query {

enum class BoundKind : uint8_t {
  kConstant,
  kColumn,
  kCall,     // scalar function (function/scalar_functions.h)
  kAnd,
  kOr,
  kNot,
  kCompare,  // op: comparison
  kArith,    // op: + - * / % ^ ||
  kNegate,
  kIsNull,   // negated: IS NOT NULL
  kInList,   // negated: NOT IN
  kLike,     // op: kLike/kNotLike/kILike/kNotILike
  kCase,     // children: [operand?] when,then pairs..., else  (see has_operand / has_else)
  kCast,
};

struct BoundExpr;
using BoundExprPtr = std::unique_ptr<BoundExpr>;

struct BoundExpr {
  BoundKind kind = BoundKind::kConstant;
  ValueType type = ValueType::kNull;
  Value constant;    // kConstant
  int column = -1;   // kColumn
  std::string name;  // kCall: function name (lower case)
  BinaryOp op = BinaryOp::kEqual;
  bool negated = false;
  bool has_operand = false;  // kCase
  bool has_else = false;     // kCase
  bool is_interval = false;  // an int64 that means nanoseconds of duration
  std::vector<BoundExprPtr> children;

  bool IsConstant() const { return kind == BoundKind::kConstant; }
};

BoundExprPtr MakeConstant(Value v);
BoundExprPtr MakeColumnRef(int column, ValueType type);
// a = b, as the binder would bind it for operands of comparable types.
BoundExprPtr MakeEqual(BoundExprPtr a, BoundExprPtr b);
// CAST(e AS type); e itself when it already is of that type.
BoundExprPtr MakeCast(BoundExprPtr e, ValueType type);
// The AND of `parts`: the one part alone, null for none.
BoundExprPtr MakeAnd(std::vector<BoundExprPtr> parts);

}  // namespace gnomon::query
