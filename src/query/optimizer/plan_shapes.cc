#include "src/query/optimizer/plan_shapes.h"

#include "src/query/logical/column_refs.h"

namespace gnomon::query::rules {
namespace {

// The table column that projected column `i` is, or -1 when it is computed.
int SourceColumn(const LogicalProject& project, int i) {
  const BoundExpr& e = *project.exprs[i];
  return e.kind == BoundKind::kColumn ? e.column : -1;
}

}  // namespace

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

bool FiltersReadTags(const LogicalGet& get) {
  std::vector<bool> used;
  for (const Predicate& p : get.filters) MarkColumnRefs(*p.expr, &used);
  for (size_t i = 0; i < used.size() && i < get.columns.size(); ++i) {
    if (used[i] && get.columns[i].kind == ScanColumn::Kind::kTag) return true;
  }
  return false;
}

bool MatchDistinctOnSeriesByTime(LogicalNode* n, DistinctOnSeriesByTime* out) {
  if (n->kind != LogicalKind::kDistinct || n->children[0]->kind != LogicalKind::kSort) return false;
  const auto& distinct = n->As<LogicalDistinct>();
  const auto& sort = n->children[0]->As<LogicalSort>();
  if (!distinct.on || sort.children[0]->kind != LogicalKind::kProject) return false;
  const auto& project = sort.children[0]->As<LogicalProject>();
  if (project.children[0]->kind != LogicalKind::kGet) return false;
  auto& get = project.children[0]->As<LogicalGet>();
  if (sort.keys.size() != distinct.key_columns.size() + 1) return false;
  for (size_t i = 0; i < distinct.key_columns.size(); ++i) {
    const int d = SourceColumn(project, distinct.key_columns[i]);
    if (d < 0 || get.columns[d].kind != ScanColumn::Kind::kTag) return false;
    if (SourceColumn(project, sort.keys[i].column) != d) return false;
  }
  const SortKey& last = sort.keys.back();
  const int t = SourceColumn(project, last.column);
  if (t < 0 || get.columns[t].kind != ScanColumn::Kind::kTime) return false;
  out->get = &get;
  out->descending = last.descending;
  return true;
}

}  // namespace gnomon::query::rules
