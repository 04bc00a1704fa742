// filter_pushdown: a Filter moves below what does not change which rows it keeps — a Sort, a
// projection of plain columns (its predicates renumbered onto the projection's input), another
// Filter (merged) — and into a Get, whose filters the storage pushdown then reads.
#include "src/query/logical/column_refs.h"
#include "src/query/optimizer/optimizer.h"
#include "src/query/optimizer/rules.h"

namespace gnomon::query::rules {
namespace {

// One step for the Filter at *slot; true if it moved.
bool PushOnce(LogicalPtr* slot) {
  auto& filter = (*slot)->As<LogicalFilter>();
  LogicalPtr& child = filter.children[0];
  switch (child->kind) {
    case LogicalKind::kGet: {
      auto& get = child->As<LogicalGet>();
      for (Predicate& p : filter.predicates) get.filters.push_back(std::move(p));
      *slot = std::move(child);
      return true;
    }
    case LogicalKind::kFilter: {
      auto& below = child->As<LogicalFilter>();
      for (Predicate& p : filter.predicates) below.predicates.push_back(std::move(p));
      *slot = std::move(child);
      return true;
    }
    case LogicalKind::kProject: {
      auto& project = child->As<LogicalProject>();
      if (!project.OnlyColumnRefs()) return false;
      std::vector<int> mapping;
      for (const BoundExprPtr& e : project.exprs) mapping.push_back(e->column);
      for (Predicate& p : filter.predicates) RemapColumnRefs(p.expr.get(), mapping);
      filter.schema = project.children[0]->schema;
      break;
    }
    case LogicalKind::kSort: break;
    default: return false;
  }
  // Swap: the filter goes between `child` and its input.
  LogicalPtr filter_node = std::move(*slot);
  LogicalPtr below = std::move(filter_node->children[0]);
  filter_node->children[0] = std::move(below->children[0]);
  below->children[0] = std::move(filter_node);
  *slot = std::move(below);
  return true;
}

// Pushes the filter at *slot as far as it goes; the filter ends in the subtree of *slot.
bool Push(LogicalPtr* slot) {
  bool changed = false;
  LogicalPtr* at = slot;
  while ((*at)->kind == LogicalKind::kFilter && PushOnce(at)) {
    changed = true;
    // After a swap the filter is the child of *at; after a merge *at is the merged node.
    if ((*at)->kind != LogicalKind::kFilter && (*at)->kind != LogicalKind::kGet) at = &(*at)->children[0];
  }
  return changed;
}

bool Visit(LogicalPtr* slot) {
  bool changed = false;
  if ((*slot)->kind == LogicalKind::kFilter) changed = Push(slot);
  for (LogicalPtr& c : (*slot)->children) changed = Visit(&c) || changed;
  return changed;
}

}  // namespace

bool FilterPushdown(LogicalPtr* root) { return Visit(root); }

}  // namespace gnomon::query::rules
