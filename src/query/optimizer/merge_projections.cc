// merge_projections: a projection of plain columns (what a CTE, a subquery or SELECT * leaves)
// under a projection or an aggregate is folded into the node above, renumbering its references,
// so that the rules that look for an Aggregate or a Project over a Get find it.
#include "src/query/logical/column_refs.h"
#include "src/query/optimizer/optimizer.h"
#include "src/query/optimizer/rules.h"

namespace gnomon::query::rules {
namespace {

bool FoldsInto(const LogicalNode& node) {
  return (node.kind == LogicalKind::kProject || node.kind == LogicalKind::kAggregate) &&
         node.children[0]->kind == LogicalKind::kProject &&
         node.children[0]->As<LogicalProject>().OnlyColumnRefs();
}

// Removes the column projection under *slot.
void MergeProjectionsAt(LogicalPtr* slot) {
  LogicalNode& node = **slot;
  auto& inner = node.children[0]->As<LogicalProject>();
  std::vector<int> mapping;
  for (const BoundExprPtr& e : inner.exprs) mapping.push_back(e->column);
  if (node.kind == LogicalKind::kProject) {
    for (BoundExprPtr& e : node.As<LogicalProject>().exprs) RemapColumnRefs(e.get(), mapping);
  } else {
    auto& agg = node.As<LogicalAggregate>();
    for (BoundExprPtr& k : agg.keys) RemapColumnRefs(k.get(), mapping);
    for (AggregateSpec& a : agg.aggregates) RemapColumnRefs(&a, mapping);
  }
  LogicalPtr below = std::move(inner.children[0]);
  node.children[0] = std::move(below);
}

}  // namespace

bool MergeProjections(LogicalPtr* root) {
  bool changed = false;
  ForEachSlotBottomUp(root, [&](LogicalPtr* slot) {
    while (FoldsInto(**slot)) {
      MergeProjectionsAt(slot);
      changed = true;
    }
  });
  return changed;
}

}  // namespace gnomon::query::rules
