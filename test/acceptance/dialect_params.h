// The parameters TSBS draws for one devops query — the host set and the time window — read out
// of a greptime or a TimescaleDB statement (after the rewrites in tsbs_query_file.h), and put
// back into either dialect's text. The acceptance test uses this to compare the two dialects
// where their parameters differ (TSBS's documented exceptions): it re-runs one dialect's
// statement with the other's parameters.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "src/base/result.h"

namespace gnomon::acceptance {

// A time bound as written: greptime '2023-06-11T02:17:08Z', TimescaleDB
// '2023-06-11 02:17:08.646325 +0000'.
struct TimeBound {
  std::string date;      // YYYY-MM-DD
  std::string clock;     // HH:MM:SS
  std::string fraction;  // digits after the point, "" for whole seconds
  int64_t ns = 0;        // the instant, Unix nanoseconds

  // The first 10-second data step at or after the bound: the first row `time >= bound` selects,
  // and the first row `time < bound` excludes (TSBS data has one row per host every 10 s from
  // midnight).
  int64_t FirstStepAtOrAfter() const;
};

struct QueryParams {
  std::vector<std::string> hosts;  // sorted; empty: the statement has no host predicate
  std::optional<TimeBound> lower;  // time >= ...
  std::optional<TimeBound> upper;  // time < ...
};

// Errors: a bound literal that is not one of the two shapes, a bound given twice.
Result<QueryParams> GreptimeParams(const std::string& sql);    // after RewriteGreptime
Result<QueryParams> TimescaleParams(const std::string& sql);   // after RewriteTimescale

// The statement with its hosts and bounds replaced by `params` (bounds keep their precision:
// whole seconds stay whole, microseconds are written out). Errors: `params` has hosts or bounds
// the statement has no place for, or the host count differs.
Result<std::string> WithGreptimeParams(const std::string& sql, const QueryParams& params);
Result<std::string> WithTimescaleParams(const std::string& sql, const QueryParams& params);

// True when both select exactly the same rows of the data set: the same hosts, and each bound
// falls in the same 10-second gap between data steps.
bool SelectSameRows(const QueryParams& a, const QueryParams& b);

std::string DescribeParams(const QueryParams& p);

}  // namespace gnomon::acceptance
