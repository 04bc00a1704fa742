// newest_first_scan: ORDER BY time DESC LIMIT n over a table with no row filter needs at most
// the newest n + offset rows of each series: the Get reads each series newest first and stops
// there (the sort above still orders across series).
#include "src/query/optimizer/optimizer.h"
#include "src/query/optimizer/plan_shapes.h"
#include "src/query/optimizer/rules.h"

namespace gnomon::query::rules {

bool NewestFirstScan(LogicalPtr* root) {
  bool changed = false;
  ForEachSlotBottomUp(root, [&](LogicalPtr* slot) {
    LimitOverSortedProject m;
    if (!MatchLimitOverSortedProject(slot->get(), &m) || m.input()->kind != LogicalKind::kGet) return;
    auto& get = m.input()->As<LogicalGet>();
    const SortKey& first = *m.first_key;
    const BoundExpr& key = *m.first_expr;
    const LogicalLimit& limit = *m.limit;
    if (!first.descending || key.kind != BoundKind::kColumn ||
        get.columns[key.column].kind != ScanColumn::Kind::kTime || !get.filters.empty() || get.last_point ||
        get.newest_first) {
      return;
    }
    get.newest_first = true;
    // LIMIT 0 reads nothing useful anyway; the scan needs a positive limit.
    get.per_series_limit = std::max<size_t>(1, static_cast<size_t>(limit.limit + limit.offset));
    changed = true;
  });
  return changed;
}

}  // namespace gnomon::query::rules
