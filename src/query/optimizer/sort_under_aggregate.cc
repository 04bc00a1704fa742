// sort_under_aggregate: an aggregate whose functions do not depend on the order of their input
// (count, sum, avg, min, max, the variances, the median and the exact quantiles) gains nothing
// from a sort below it, directly or under filters and projections (a subquery's ORDER BY, which
// SQL does not promise to keep anyway): the sort goes. first/last, arg_max/arg_min, mode and InfluxQL's percentile pick among
// ties by arrival, so a sort under them stays. InfluxQL subqueries (avg-load's) compile to this.
#include <algorithm>

#include "src/query/optimizer/optimizer.h"
#include "src/query/optimizer/rules.h"

namespace gnomon::query::rules {
namespace {

bool OrderInsensitive(const AggregateSpec& a) {
  switch (a.kind) {
    case AggKind::kCountStar:
    case AggKind::kCount:
    case AggKind::kSum:
    case AggKind::kMin:
    case AggKind::kMax:
    case AggKind::kAvg:
    case AggKind::kStddevSamp:
    case AggKind::kStddevPop:
    case AggKind::kVarSamp:
    case AggKind::kVarPop:
    case AggKind::kMedian:
    case AggKind::kQuantileCont:
    case AggKind::kQuantileDisc: return true;
    default: return false;
  }
}

}  // namespace

bool SortUnderAggregate(LogicalPtr* root) {
  bool changed = false;
  ForEachSlotBottomUp(root, [&](LogicalPtr* slot) {
    LogicalNode* n = slot->get();
    if (n->kind != LogicalKind::kAggregate) return;
    const auto& aggregate = n->As<LogicalAggregate>();
    if (!std::all_of(aggregate.aggregates.begin(), aggregate.aggregates.end(), OrderInsensitive)) return;
    // Filters and projections work row by row: a sort below them is as good as under the aggregate.
    LogicalPtr* below = &n->children[0];
    while ((*below)->kind == LogicalKind::kFilter || (*below)->kind == LogicalKind::kProject) {
      below = &(*below)->children[0];
    }
    if ((*below)->kind != LogicalKind::kSort || (*below)->As<LogicalSort>().top_n >= 0) return;
    LogicalPtr input = std::move((*below)->children[0]);
    *below = std::move(input);
    changed = true;
  });
  return changed;
}

}  // namespace gnomon::query::rules
