// last_point_from_cache: SELECT DISTINCT ON (tags) ... ORDER BY those tags, time DESC over a whole
// table (no time bound, no row filter) wants the newest row of each series: the Get reads it
// from the last-value cache instead of scanning.
#include "src/query/optimizer/optimizer.h"
#include "src/query/optimizer/rules.h"

namespace gnomon::query::rules {
namespace {

// The table column that projected column `i` is, or -1 when it is computed.
int SourceColumn(const LogicalProject& project, int i) {
  const BoundExpr& e = *project.exprs[i];
  return e.kind == BoundKind::kColumn ? e.column : -1;
}

bool Matches(const LogicalDistinct& distinct, const LogicalSort& sort, const LogicalProject& project,
             const LogicalGet& get) {
  if (!distinct.on || get.pushdown.has_time_bound || !get.filters.empty()) return false;
  if (sort.keys.size() != distinct.key_columns.size() + 1) return false;
  for (size_t i = 0; i < distinct.key_columns.size(); ++i) {
    int d = SourceColumn(project, distinct.key_columns[i]);
    if (d < 0 || get.columns[d].kind != ScanColumn::Kind::kTag) return false;
    if (SourceColumn(project, sort.keys[i].column) != d) return false;
  }
  const SortKey& last = sort.keys.back();
  int t = SourceColumn(project, last.column);
  return last.descending && t >= 0 && get.columns[t].kind == ScanColumn::Kind::kTime;
}

}  // namespace

bool LastPointFromCache(LogicalPtr* root) {
  bool changed = false;
  ForEachSlotBottomUp(root, [&](LogicalPtr* slot) {
    LogicalNode* n = slot->get();
    if (n->kind != LogicalKind::kDistinct || n->children[0]->kind != LogicalKind::kSort) return;
    LogicalNode* sort = n->children[0].get();
    if (sort->children[0]->kind != LogicalKind::kProject) return;
    LogicalNode* project = sort->children[0].get();
    if (project->children[0]->kind != LogicalKind::kGet) return;
    auto& get = project->children[0]->As<LogicalGet>();
    if (get.last_point || !Matches(n->As<LogicalDistinct>(), sort->As<LogicalSort>(),
                                   project->As<LogicalProject>(), get)) {
      return;
    }
    get.last_point = true;
    changed = true;
  });
  return changed;
}

}  // namespace gnomon::query::rules
