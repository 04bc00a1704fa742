// time_ordered_scan: ORDER BY time [DESC] LIMIT n over a table needs at most the first n + offset
// rows of each series in that order that pass the row filter: the Get reads each series in that
// order and stops there (the sort above still orders across series). A filter that reads tags
// runs above the scan, where the scan could not count passing rows: the rule leaves that alone.
#include "src/query/optimizer/optimizer.h"
#include "src/query/optimizer/plan_shapes.h"
#include "src/query/optimizer/rules.h"

namespace gnomon::query::rules {

bool TimeOrderedScan(LogicalPtr* root) {
  bool changed = false;
  ForEachSlotBottomUp(root, [&](LogicalPtr* slot) {
    LimitOverSortedProject m;
    if (!MatchLimitOverSortedProject(slot->get(), &m) || m.input()->kind != LogicalKind::kGet) return;
    auto& get = m.input()->As<LogicalGet>();
    const SortKey& first = *m.first_key;
    const BoundExpr& key = *m.first_expr;
    const LogicalLimit& limit = *m.limit;
    if (key.kind != BoundKind::kColumn || get.columns[key.column].kind != ScanColumn::Kind::kTime ||
        FiltersReadTags(get) || get.last_point || get.per_series_limit > 0) {
      return;
    }
    get.newest_first = first.descending;
    // LIMIT 0 reads nothing useful anyway; the scan needs a positive limit.
    get.per_series_limit = std::max<size_t>(1, static_cast<size_t>(limit.limit + limit.offset));
    changed = true;
  });
  return changed;
}

}  // namespace gnomon::query::rules
