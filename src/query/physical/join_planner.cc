#include "src/query/physical/join_planner.h"

#include "src/query/logical/cardinality.h"
#include "src/query/logical/column_refs.h"

namespace gnomon::query {
namespace {

BinaryOp Flip(BinaryOp op) {
  switch (op) {
    case BinaryOp::kGreater: return BinaryOp::kLess;
    case BinaryOp::kGreaterEqual: return BinaryOp::kLessEqual;
    case BinaryOp::kLess: return BinaryOp::kGreater;
    case BinaryOp::kLessEqual: return BinaryOp::kGreaterEqual;
    default: return op;
  }
}

bool IsI64(ValueType t) { return t == ValueType::kInt64 || t == ValueType::kTimestamp; }
bool IsNumber(ValueType t) { return IsI64(t) || t == ValueType::kUInt64 || t == ValueType::kFloat64; }

// Whether values of the two types can hash alike (after MakeComparable).
bool Comparable(ValueType x, ValueType y) {
  if (x == ValueType::kNull || y == ValueType::kNull) return false;
  return x == y || (IsI64(x) && IsI64(y)) || (IsNumber(x) && IsNumber(y));
}

void MakeComparable(BoundExprPtr* a, BoundExprPtr* b) {
  const ValueType x = (*a)->type, y = (*b)->type;
  if (x == y || (IsI64(x) && IsI64(y))) return;
  *a = MakeCast(std::move(*a), ValueType::kFloat64);
  *b = MakeCast(std::move(*b), ValueType::kFloat64);
}

// Renumbers an expression over the right side's columns (which follow the left's).
void ToRightColumns(BoundExpr* e, size_t left_width, size_t width) {
  std::vector<int> mapping(width, 0);
  for (size_t i = left_width; i < width; ++i) mapping[i] = static_cast<int>(i - left_width);
  RemapColumnRefs(e, mapping);
}

}  // namespace

Result<HashJoinSpec> PlanJoinSpec(LogicalJoin* join) {
  HashJoinSpec spec;
  spec.kind = join->join_kind;
  spec.asof = join->asof;
  spec.null_aware = join->null_aware;
  const size_t left_width = join->children[0]->schema.size();
  const size_t width = left_width + join->children[1]->schema.size();
  std::vector<BoundExprPtr> residual;
  for (Predicate& p : join->conditions) {
    spec.text += (spec.text.empty() ? "" : " AND ") + p.text;
    BoundExpr& e = *p.expr;
    const bool comparison = e.kind == BoundKind::kCompare && e.children.size() == 2;
    JoinSide a = comparison ? SideOf(*e.children[0], left_width) : JoinSide::kBoth;
    JoinSide b = comparison ? SideOf(*e.children[1], left_width) : JoinSide::kBoth;
    const bool splits = (a == JoinSide::kLeft && b == JoinSide::kRight) || (a == JoinSide::kRight && b == JoinSide::kLeft);
    if (!splits || (e.op != BinaryOp::kEqual && !spec.asof) ||
        !Comparable(e.children[0]->type, e.children[1]->type)) {
      if (spec.asof && splits && e.op != BinaryOp::kEqual) {
        return Status::InvalidArgument("an ASOF JOIN compares two times or numbers: " + p.text);
      }
      residual.push_back(std::move(p.expr));
      continue;
    }
    BoundExprPtr l = std::move(e.children[a == JoinSide::kLeft ? 0 : 1]);
    BoundExprPtr r = std::move(e.children[a == JoinSide::kLeft ? 1 : 0]);
    const BinaryOp op = a == JoinSide::kLeft ? e.op : Flip(e.op);
    ToRightColumns(r.get(), left_width, width);
    MakeComparable(&l, &r);
    if (op != BinaryOp::kEqual) {  // the ASOF comparison
      spec.left_time = std::move(l);
      spec.right_time = std::move(r);
      spec.asof_op = op;
      continue;
    }
    spec.left_keys.push_back(std::move(l));
    spec.right_keys.push_back(std::move(r));
  }
  if (spec.asof && !residual.empty()) {
    return Status::InvalidArgument("an ASOF JOIN condition is equalities between the two sides AND one time "
                                   "comparison: " + spec.text);
  }
  if (spec.null_aware && (!residual.empty() || spec.left_keys.size() != 1)) {
    return Status::Internal("NOT IN planned with a condition other than one equality");
  }
  spec.residual = MakeAnd(std::move(residual));
  join->conditions.clear();
  const bool either_side = spec.kind == JoinKind::kInner || spec.kind == JoinKind::kLeft ||
                           spec.kind == JoinKind::kRight || spec.kind == JoinKind::kFull;
  spec.build_left = either_side && !spec.asof &&
                    EstimateRows(*join->children[0]) < EstimateRows(*join->children[1]);
  return spec;
}

namespace {

// Whether `node`'s rows come sorted ascending by its output column `column`, NULLs last.
bool SortedAscendingBy(const LogicalNode& node, int column) {
  switch (node.kind) {
    case LogicalKind::kSort: {
      const auto& keys = node.As<LogicalSort>().keys;
      return !keys.empty() && keys[0].column == column && !keys[0].descending && !keys[0].nulls_first;
    }
    case LogicalKind::kProject: {
      const auto& p = node.As<LogicalProject>();
      const BoundExpr& e = *p.exprs[column];
      return e.kind == BoundKind::kColumn && SortedAscendingBy(*node.children[0], e.column);
    }
    case LogicalKind::kFilter:
    case LogicalKind::kLimit: return SortedAscendingBy(*node.children[0], column);
    default: return false;
  }
}

bool SameKeyClass(ValueType a, ValueType b) { return a == b || (IsI64(a) && IsI64(b)); }

}  // namespace

bool CanMergeJoin(const HashJoinSpec& spec, const LogicalJoin& join, int* left_key, int* right_key) {
  if (spec.asof || spec.residual || spec.left_keys.size() != 1) return false;
  if (spec.kind != JoinKind::kInner && spec.kind != JoinKind::kLeft) return false;
  const BoundExpr& l = *spec.left_keys[0];
  const BoundExpr& r = *spec.right_keys[0];
  if (l.kind != BoundKind::kColumn || r.kind != BoundKind::kColumn || !SameKeyClass(l.type, r.type)) return false;
  if (!SortedAscendingBy(*join.children[0], l.column) || !SortedAscendingBy(*join.children[1], r.column)) return false;
  *left_key = l.column;
  *right_key = r.column;
  return true;
}

}  // namespace gnomon::query
