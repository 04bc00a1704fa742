// last_value_cache: last(x) / last_value(x ORDER BY time) of plain columns, grouped by tags or not
// at all, over a whole table (no time bound, no row filter) is answered from the last-value
// cache instead of scanning: LastValues replaces the Aggregate and its Get.
#include "src/query/optimizer/optimizer.h"
#include "src/query/optimizer/plan_shapes.h"
#include "src/query/optimizer/rules.h"

namespace gnomon::query::rules {
namespace {

bool Matches(const LogicalAggregate& agg, const LogicalGet& get) {
  if (get.pushdown.has_time_bound || agg.aggregates.empty()) return false;
  for (const BoundExprPtr& k : agg.keys) {
    if (k->kind != BoundKind::kColumn || get.columns[k->column].kind != ScanColumn::Kind::kTag) return false;
  }
  for (const AggregateSpec& s : agg.aggregates) {
    if (s.kind != AggKind::kLast || s.distinct || !s.arg || s.arg->kind != BoundKind::kColumn || !s.key ||
        s.key->kind != BoundKind::kColumn || get.columns[s.key->column].kind != ScanColumn::Kind::kTime) {
      return false;
    }
  }
  return true;
}

}  // namespace

bool LastValueCache(LogicalPtr* root) {
  bool changed = false;
  ForEachSlotBottomUp(root, [&](LogicalPtr* slot) {
    AggregateOverGet m;
    if (!MatchAggregateOverUnfilteredGet(slot->get(), &m) || !Matches(*m.aggregate, *m.get)) return;
    auto& agg = *m.aggregate;
    const auto& get = *m.get;
    auto lv = std::make_unique<LogicalLastValues>();
    lv->schema = agg.schema;
    lv->reader = get.reader;
    lv->table = get.table;
    lv->series = get.Series();
    for (const BoundExprPtr& k : agg.keys) lv->key_tags.push_back(get.columns[k->column].name);
    lv->key_names = agg.key_names;
    for (AggregateSpec& s : agg.aggregates) {
      LastValueAggregate a;
      a.column = get.columns[s.arg->column];
      a.spec = std::move(s);
      lv->aggregates.push_back(std::move(a));
    }
    *slot = std::move(lv);
    changed = true;
  });
  return changed;
}

}  // namespace gnomon::query::rules
