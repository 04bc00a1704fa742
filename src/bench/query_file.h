// Query files in the text form of test/testdata/tsbs/README.md, which `gnomon bench generate-queries`
// also writes: per query a "-- query: n" line, "-- key: value" header lines (label, description,
// and per target hypertable / table / http), then the query text verbatim (possibly several lines,
// possibly starting with a newline), then a blank line.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "src/base/result.h"

namespace gnomon::bench {

struct QueryRecord {
  uint64_t number = 0;      // "-- query: n"
  std::string label;        // TSBS's human label: the statistics key
  std::string description;
  std::vector<std::pair<std::string, std::string>> headers;  // every "-- key: value", in order
  std::string text;         // the query, trailing newlines trimmed
  uint64_t line = 0;        // 1-based line of "-- query:" (for error messages)
};

// Errors (InvalidArgument, with the line number): text before the first "-- query:", a query
// without a label or without text, a malformed query number.
Result<std::vector<QueryRecord>> ParseQueryFile(std::string_view contents);

Result<std::vector<QueryRecord>> ReadQueryFile(const std::string& path);

}  // namespace gnomon::bench
