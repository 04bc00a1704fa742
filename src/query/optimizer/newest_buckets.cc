// newest_buckets: GROUP BY <one time bucket> ... ORDER BY that bucket DESC LIMIT n needs only the
// newest n + offset buckets: the bucket aggregate widens a window back from the newest data
// until it holds them, instead of aggregating the whole range.
#include "src/query/optimizer/optimizer.h"
#include "src/query/optimizer/plan_shapes.h"
#include "src/query/optimizer/rules.h"

namespace gnomon::query::rules {

bool NewestBuckets(LogicalPtr* root) {
  bool changed = false;
  ForEachSlotBottomUp(root, [&](LogicalPtr* slot) {
    LimitOverSortedProject m;
    if (!MatchLimitOverSortedProject(slot->get(), &m) || m.input()->kind != LogicalKind::kBucketAggregate) return;
    auto& bucket = m.input()->As<LogicalBucketAggregate>();
    const SortKey& first = *m.first_key;
    const BoundExpr& key = *m.first_expr;
    const LogicalLimit& limit = *m.limit;
    if (!first.descending || bucket.keys.size() != 1 || bucket.keys[0].kind != BucketGroupKey::Kind::kBucket ||
        key.kind != BoundKind::kColumn || key.column != 0 || bucket.newest_buckets > 0) {
      return;
    }
    bucket.newest_buckets = static_cast<size_t>(limit.limit + limit.offset);
    changed = true;
  });
  return changed;
}

}  // namespace gnomon::query::rules
