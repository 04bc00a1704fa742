#include "src/query/optimizer/plan_shapes.h"

namespace gnomon::query::rules {

bool MatchLimitOverSortedProject(LogicalNode* n, LimitOverSortedProject* out) {
  if (n->kind != LogicalKind::kLimit || n->children[0]->kind != LogicalKind::kSort) return false;
  auto& limit = n->As<LogicalLimit>();
  auto& sort = n->children[0]->As<LogicalSort>();
  if (limit.limit < 0 || sort.keys.empty() || sort.children[0]->kind != LogicalKind::kProject) return false;
  auto& project = sort.children[0]->As<LogicalProject>();
  out->limit = &limit;
  out->sort = &sort;
  out->project = &project;
  out->first_key = &sort.keys[0];
  out->first_expr = project.exprs[sort.keys[0].column].get();
  return true;
}

bool MatchAggregateOverUnfilteredGet(LogicalNode* n, AggregateOverGet* out) {
  if (n->kind != LogicalKind::kAggregate || n->children[0]->kind != LogicalKind::kGet) return false;
  auto& get = n->children[0]->As<LogicalGet>();
  if (!get.filters.empty()) return false;
  out->aggregate = &n->As<LogicalAggregate>();
  out->get = &get;
  return true;
}

}  // namespace gnomon::query::rules
