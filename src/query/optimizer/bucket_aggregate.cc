// bucket_aggregate: count/sum/min/max/avg of numeric fields, grouped by at most one time bucket
// of the time column and by tags, over a table whose filters storage took completely, runs in
// BucketAggregate: per-series running statistics and block statistics instead of rows.
#include <algorithm>

#include "src/query/function/scalar_functions.h"
#include "src/query/optimizer/optimizer.h"
#include "src/query/optimizer/plan_shapes.h"
#include "src/query/optimizer/rules.h"

namespace gnomon::query::rules {
namespace {

bool GroupKeys(const LogicalAggregate& agg, const LogicalGet& get, std::vector<BucketGroupKey>* out) {
  for (size_t i = 0; i < agg.keys.size(); ++i) {
    const BoundExpr& k = *agg.keys[i];
    BucketGroupKey bk;
    bk.name = agg.key_names[i];
    TimeBucketFn fn;
    int col;
    if (AsTimeBucket(k, &fn, &col) && get.columns[col].kind == ScanColumn::Kind::kTime) {
      bool second = std::any_of(out->begin(), out->end(),
                                [](const BucketGroupKey& x) { return x.kind == BucketGroupKey::Kind::kBucket; });
      if (second) return false;
      bk.kind = BucketGroupKey::Kind::kBucket;
      bk.bucket = fn;
    } else if (k.kind == BoundKind::kColumn && get.columns[k.column].kind == ScanColumn::Kind::kTag) {
      bk.kind = BucketGroupKey::Kind::kTag;
      bk.tag = get.columns[k.column].name;
    } else {
      return false;
    }
    out->push_back(bk);
  }
  return true;
}

bool Supported(const AggregateSpec& s, const LogicalGet& get) {
  if (!BucketAggregateOperator::Supports(s.kind) || s.distinct) return false;
  if (s.kind == AggKind::kCountStar) return true;
  // Running min/max/sum and block statistics are numeric; strings take the general path.
  const bool counts = s.kind == AggKind::kCount;
  if (!counts && !IsNumeric(s.arg->type)) return false;
  return s.arg->kind == BoundKind::kColumn && get.columns[s.arg->column].kind == ScanColumn::Kind::kField;
}

}  // namespace

bool BucketAggregate(LogicalPtr* root) {
  bool changed = false;
  ForEachSlotBottomUp(root, [&](LogicalPtr* slot) {
    AggregateOverGet m;
    if (!MatchAggregateOverUnfilteredGet(slot->get(), &m)) return;
    auto& agg = *m.aggregate;
    const auto& get = *m.get;
    // Keys alone (GROUP BY without an aggregate) go to the hash aggregate: the bucket operator
    // keeps state per aggregate and has none to keep (sql_query_fuzz found it indexing an empty one).
    if (agg.aggregates.empty()) return;
    std::vector<BucketGroupKey> keys;
    if (!GroupKeys(agg, get, &keys)) return;
    for (const AggregateSpec& s : agg.aggregates) {
      if (!Supported(s, get)) return;
    }
    auto bucket = std::make_unique<LogicalBucketAggregate>();
    bucket->schema = agg.schema;
    bucket->reader = get.reader;
    bucket->table = get.table;
    bucket->series = get.Series();
    bucket->min_time = get.pushdown.min_time;
    bucket->max_time = get.pushdown.max_time;
    bucket->note = get.pushdown.note;
    bucket->keys = std::move(keys);
    for (AggregateSpec& s : agg.aggregates) {
      query::BucketAggregate ba;
      if (s.kind != AggKind::kCountStar) ba.field = get.columns[s.arg->column].name;
      ba.spec = std::move(s);
      bucket->aggregates.push_back(std::move(ba));
    }
    *slot = std::move(bucket);
    changed = true;
  });
  return changed;
}

}  // namespace gnomon::query::rules
