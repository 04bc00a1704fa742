// Plan shapes several rules look for, matched in one place.
#pragma once

#include "src/query/logical/logical_plan.h"

namespace gnomon::query::rules {

// LIMIT (with a row count) over ORDER BY over a projection: the shape of "the newest n".
struct LimitOverSortedProject {
  LogicalLimit* limit = nullptr;
  LogicalSort* sort = nullptr;
  LogicalProject* project = nullptr;
  const SortKey* first_key = nullptr;    // the sort's leading key
  const BoundExpr* first_expr = nullptr; // the projected expression that key orders by
  LogicalNode* input() const { return project->children[0].get(); }
};
// Whether `n` is such a LIMIT; fills `out` when it is.
bool MatchLimitOverSortedProject(LogicalNode* n, LimitOverSortedProject* out);

// An aggregate directly over a Get with no row filter left on it (a filter the storage layer
// could not take means the aggregate must see rows).
struct AggregateOverGet {
  LogicalAggregate* aggregate = nullptr;
  LogicalGet* get = nullptr;
};
bool MatchAggregateOverUnfilteredGet(LogicalNode* n, AggregateOverGet* out);

// Whether a Get's remaining row filters read a tag column (those run above its scan).
bool FiltersReadTags(const LogicalGet& get);

// SELECT DISTINCT ON (tags) ... ORDER BY those tags, time [DESC] over a projection of a Get: the
// first (or, descending, the last) row of each tag group, so of each series.
struct DistinctOnSeriesByTime {
  LogicalGet* get = nullptr;
  bool descending = false;  // the newest row of each group
};
bool MatchDistinctOnSeriesByTime(LogicalNode* n, DistinctOnSeriesByTime* out);

}  // namespace gnomon::query::rules
