// Splits a WHERE clause over a base table into what storage can do itself — a time range and a
// set of series from tag predicates — and the residual predicate that must still be evaluated.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "src/base/result.h"
#include "src/query/parser/ast.h"
#include "src/storage/scan.h"

namespace gnomon::query {

struct WherePushdown {
  int64_t min_time = std::numeric_limits<int64_t>::min();
  int64_t max_time = std::numeric_limits<int64_t>::max();
  bool has_time_bound = false;
  // Ascending series ids allowed by tag predicates; nullopt = every series.
  std::optional<std::vector<storage::SeriesId>> series;
  // Conjuncts not pushed down (evaluated on rows); empty when everything was pushed.
  std::vector<const ParsedExpression*> residual;
  std::string note;  // for EXPLAIN: what was pushed
};

// `tag_keys`: the table's tag columns; `now_ns` for now().
Result<WherePushdown> AnalyzeWhere(const ParsedExpression* where, const storage::TableReader& reader,
                                   const std::vector<std::string>& tag_keys, int64_t now_ns);

}  // namespace gnomon::query
