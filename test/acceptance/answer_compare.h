// Comparing one logical query's answers from the two SQL dialects. Column names and order differ
// between them, so each answer is first projected onto a canonical form:
//   * every column gets a canonical name: greptime's `max(usage_user)` and TimescaleDB's alias
//     `max_usage_user` both become `max_usage_user`; `avg(x)` and `mean_x` become `mean_x`;
//     greptime's `date_trunc('hour', time)` and TimescaleDB's `hour`/`minute` become `bucket`;
//     `last_value(x ORDER BY time)` becomes `x`; plain column names stay as they are;
//   * the canonical column list is the greptime answer's, in its order; the TimescaleDB answer
//     must have each of those columns with the same type, and may have extra columns only where
//     greptime's statement drops them (double-groupby does not select hostname; lastpoint's
//     last_value list has no time), which the caller names.
// Rows are then compared in order if both statements order them, else as multisets; integers,
// timestamps and text exactly, floats within 1e-9 relative.
#pragma once

#include <string>
#include <vector>

#include "src/base/result.h"
#include "test/acceptance/tsbs_cpu_store.h"

namespace gnomon::acceptance {

std::string CanonicalColumnName(const std::string& name);

// `answer` projected onto `columns` (canonical names). Errors: a column is missing.
Result<QueryAnswer> Project(const QueryAnswer& answer, const std::vector<std::string>& columns);

// The canonical columns of `greptime`; checks that `timescale` has them (same types) plus exactly
// `timescale_only` besides. Errors describe the mismatch with both column lists.
Result<std::vector<std::string>> CanonicalColumns(const QueryAnswer& greptime, const QueryAnswer& timescale,
                                                  const std::vector<std::string>& timescale_only);

// "" when the answers (already projected onto the same columns) agree, else a description: row
// counts and the first differing row of each.
std::string CompareRows(const QueryAnswer& a, const QueryAnswer& b, bool ordered);

std::string RenderRow(const QueryAnswer& a, size_t row);

}  // namespace gnomon::acceptance
