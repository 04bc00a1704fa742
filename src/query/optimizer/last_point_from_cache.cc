// last_point_from_cache: SELECT DISTINCT ON (tags) ... ORDER BY those tags, time DESC over a whole
// table (no time bound, no row filter) wants the newest row of each series: the Get reads it
// from the last-value cache instead of scanning.
#include "src/query/optimizer/optimizer.h"
#include "src/query/optimizer/plan_shapes.h"
#include "src/query/optimizer/rules.h"

namespace gnomon::query::rules {

bool LastPointFromCache(LogicalPtr* root) {
  bool changed = false;
  ForEachSlotBottomUp(root, [&](LogicalPtr* slot) {
    DistinctOnSeriesByTime m;
    if (!MatchDistinctOnSeriesByTime(slot->get(), &m) || !m.descending) return;
    LogicalGet& get = *m.get;
    if (get.last_point || get.pushdown.has_time_bound || !get.filters.empty()) return;
    get.last_point = true;
    changed = true;
  });
  return changed;
}

}  // namespace gnomon::query::rules
