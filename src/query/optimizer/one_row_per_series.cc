// one_row_per_series: SELECT DISTINCT ON (tags) ... ORDER BY those tags, time [DESC] keeps one
// row of each tag group, the oldest (or newest) that passes the row filter; a group is one or
// more series, so that row is among the first of its series' rows in that order that pass. The
// Get reads each series in that order and stops at its first passing row; the sort and the
// DISTINCT ON above pick among those few. Where the last-value cache answers (newest, no filter,
// no time bound), last_point_from_cache has taken the shape already. A filter that reads tags
// runs above the scan, so the scan could not count passing rows: the rule leaves that alone.
// InfluxQL's `GROUP BY tags ORDER BY time [DESC] LIMIT 1` compiles to this shape.
#include "src/query/optimizer/optimizer.h"
#include "src/query/optimizer/plan_shapes.h"
#include "src/query/optimizer/rules.h"

namespace gnomon::query::rules {

bool OneRowPerSeries(LogicalPtr* root) {
  bool changed = false;
  ForEachSlotBottomUp(root, [&](LogicalPtr* slot) {
    DistinctOnSeriesByTime m;
    if (!MatchDistinctOnSeriesByTime(slot->get(), &m)) return;
    LogicalGet& get = *m.get;
    if (get.last_point || get.per_series_limit > 0 || FiltersReadTags(get)) return;
    get.newest_first = m.descending;
    get.per_series_limit = 1;
    changed = true;
  });
  return changed;
}

}  // namespace gnomon::query::rules
