// The optimizer's rules, one per file in this directory. Each returns true if it changed the plan.
#pragma once

#include "src/query/logical/logical_plan.h"

namespace gnomon::query::rules {

// A sort under an aggregate whose functions ignore input order (through filters and
// projections) goes.
bool SortUnderAggregate(LogicalPtr* root);
// Subexpressions that read no column become constants.
bool ConstantFolding(LogicalPtr* root);
// Filters move down through column-only projections, sorts and other filters, into a Get.
bool FilterPushdown(LogicalPtr* root);
// A projection of plain columns under another projection or an aggregate is folded into it.
bool MergeProjections(LogicalPtr* root);
// A Get's time comparisons and tag predicates become a time range and a series set.
bool StoragePushdown(LogicalPtr* root);
// Every node keeps only the columns something above it reads; a Get reads only those.
bool PruneColumns(LogicalPtr* root);
// last(x) per tag group over a whole table comes from the last-value cache.
bool LastValueCache(LogicalPtr* root);
// count/sum/min/max/avg of fields per time bucket and tags, from running statistics.
bool BucketAggregate(LogicalPtr* root);
// DISTINCT ON (tags) ... ORDER BY tags, time DESC: the newest row per series from the cache.
bool LastPointFromCache(LogicalPtr* root);
// DISTINCT ON (tags) ... ORDER BY tags, time [DESC]: each series read in that order, stopping at
// its first row that passes the filter.
bool OneRowPerSeries(LogicalPtr* root);
// ORDER BY time [DESC] LIMIT n over a table: each series in that order, n passing rows at most.
bool TimeOrderedScan(LogicalPtr* root);
// ORDER BY bucket DESC LIMIT n over a bucket aggregate: only the newest n buckets.
bool NewestBuckets(LogicalPtr* root);
// A sort by a gap fill's groups and then its bucket is the gap fill's own order: the sort goes.
bool GapFillOrder(LogicalPtr* root);
// LIMIT over ORDER BY keeps only the first rows while sorting.
bool TopN(LogicalPtr* root);

}  // namespace gnomon::query::rules
