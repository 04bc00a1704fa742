// constant_folding: every subexpression that reads no column and is not yet a constant
// (`now() - INTERVAL '1 hour'`, `2 * 50`, `upper('a')`) is evaluated once, here, so that operators
// see a constant (the vectorised comparison with a constant, storage's time range) instead of
// evaluating it per row. One that fails to evaluate (1 / 0) is left to fail where it runs, if it
// runs at all.
#include "src/query/execution/expression_executor.h"
#include "src/query/logical/column_refs.h"
#include "src/query/optimizer/optimizer.h"
#include "src/query/optimizer/rules.h"

namespace gnomon::query::rules {
namespace {

bool FoldExpression(BoundExprPtr* slot) {
  BoundExpr& e = **slot;
  if (e.kind == BoundKind::kConstant) return false;
  if (e.kind != BoundKind::kColumn && ReadsNoColumn(e)) {
    Result<Value> v = EvalConstant(e);
    if (v.ok()) {
      const ValueType type = e.type;
      const bool interval = e.is_interval;
      *slot = MakeConstant(std::move(v).value());
      // The expression's type stands (a NULL result keeps it; an interval stays one).
      (*slot)->type = type;
      (*slot)->is_interval = interval;
      return true;
    }
    return false;
  }
  bool changed = false;
  for (BoundExprPtr& c : e.children) changed = FoldExpression(&c) || changed;
  return changed;
}

bool FoldAll(std::vector<Predicate>* predicates) {
  bool changed = false;
  for (Predicate& p : *predicates) changed = FoldExpression(&p.expr) || changed;
  return changed;
}

bool FoldConstantsIn(LogicalNode* node) {
  bool changed = false;
  switch (node->kind) {
    case LogicalKind::kGet: changed = FoldAll(&node->As<LogicalGet>().filters); break;
    case LogicalKind::kFilter: changed = FoldAll(&node->As<LogicalFilter>().predicates); break;
    case LogicalKind::kJoin: changed = FoldAll(&node->As<LogicalJoin>().conditions); break;
    case LogicalKind::kProject:
      for (BoundExprPtr& e : node->As<LogicalProject>().exprs) changed = FoldExpression(&e) || changed;
      break;
    case LogicalKind::kAggregate: {
      auto& agg = node->As<LogicalAggregate>();
      for (BoundExprPtr& k : agg.keys) changed = FoldExpression(&k) || changed;
      for (AggregateSpec& a : agg.aggregates) {
        if (a.arg) changed = FoldExpression(&a.arg) || changed;
      }
      break;
    }
    default: break;
  }
  for (LogicalPtr& c : node->children) changed = FoldConstantsIn(c.get()) || changed;
  return changed;
}

}  // namespace

bool ConstantFolding(LogicalPtr* root) { return FoldConstantsIn(root->get()); }

}  // namespace gnomon::query::rules
