// What storage can do itself with the conjuncts of a predicate over a base table: a time range
// from comparisons of the time column with constants (BETWEEN included), and a set of series
// from tag equality, IN lists and ORs of those over one tag.
#pragma once

#include <vector>

#include "src/query/logical/logical_plan.h"

namespace gnomon::query {

// Takes the conjuncts storage answers out of *conjuncts (bound against `columns`), leaving the
// residual there, and returns what they allow.
StoragePushdown ExtractStoragePushdown(std::vector<Predicate>* conjuncts, const std::vector<ScanColumn>& columns,
                                       const storage::TableReader& reader);

}  // namespace gnomon::query
