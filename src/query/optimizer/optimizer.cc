#include "src/query/optimizer/optimizer.h"

#include "src/query/optimizer/rules.h"

namespace gnomon::query {

// Constants first (so every rule after sees them), and sorts no aggregate above needs go (so
// that the shapes below them meet); then filters, so that predicates written above a CTE or a subquery reach the table; then
// projections merge, so that aggregates and sorts see the table's columns directly; then storage
// takes what it can of the filters, and unread columns go before the fast paths look at what a
// Get reads. The fast paths replace Get-based shapes; a sort a gap fill's order already
// satisfies goes; top_n last, where no fast path took the sort's limit.
const std::vector<OptimizerRule>& OptimizerRules() {
  static const std::vector<OptimizerRule> kRules = {
      {"constant_folding", rules::ConstantFolding},
      {"sort_under_aggregate", rules::SortUnderAggregate},
      {"filter_pushdown", rules::FilterPushdown},
      {"merge_projections", rules::MergeProjections},
      {"storage_pushdown", rules::StoragePushdown},
      {"prune_columns", rules::PruneColumns},
      {"last_value_cache", rules::LastValueCache},
      {"bucket_aggregate", rules::BucketAggregate},
      {"last_point_from_cache", rules::LastPointFromCache},
      {"one_row_per_series", rules::OneRowPerSeries},
      {"time_ordered_scan", rules::TimeOrderedScan},
      {"newest_buckets", rules::NewestBuckets},
      {"gap_fill_order", rules::GapFillOrder},
      {"top_n", rules::TopN},
  };
  return kRules;
}

void Optimize(LogicalPtr* root, std::vector<std::string>* fired) {
  for (const OptimizerRule& rule : OptimizerRules()) {
    if (rule.apply(root) && fired != nullptr) fired->push_back(rule.name);
  }
}

}  // namespace gnomon::query
