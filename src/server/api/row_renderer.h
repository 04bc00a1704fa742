// Rows of a query result as JSON arrays ([v,v,...] separated by ',') or CSV lines, the cells of
// /v1/sql's "rows" and of /query's "values". Rows are rendered into a scratch buffer with room
// checked per row and per string (no per-byte appends): integers with std::to_chars, floats with
// FormatDouble (std::to_chars' bytes, faster), strings copied whole unless they need escaping,
// timestamps with the calendar date computed once per day, a constant column (one series' tag)
// once per chunk.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "src/query/result.h"

namespace gnomon::server::api {

enum class ResultFormat { kJson, kCsv };

// How timestamps render: RFC 3339 text (divisor 0), or integers of `divisor` nanoseconds, rounded
// down (SQL's epoch=) or toward zero (InfluxDB 1.x's epoch=, Go's integer division).
struct TimeFormat {
  int64_t divisor = 0;
  bool truncate = false;
};

class RowRenderer {
 public:
  RowRenderer(ResultFormat format, TimeFormat time) : format_(format), time_(time) {}

  // Appends rows [begin, end) of `chunk`, cells of columns first_column onward, to `out`. JSON:
  // a ',' before every row but the first, and before that one too when `comma_first`.
  void Render(const query::ResultChunk& chunk, size_t first_column, size_t begin, size_t end, bool comma_first,
              std::string* out);

 private:
  // Upper bound of the bytes one row of `chunk` renders to, strings not counted.
  size_t FixedRowBound(const query::ResultChunk& chunk) const;
  // Renders one cell at p; returns the end. p must have room for the cell's bound.
  char* WriteCell(char* p, const query::ResultVector& v, size_t row);
  char* WriteTimestamp(char* p, int64_t nanos);

  ResultFormat format_;
  TimeFormat time_;
  std::unique_ptr<char[]> scratch_;
  size_t scratch_size_ = 0;
  std::vector<std::string> constant_text_;  // per column of the chunk being rendered
  // RFC 3339 date text of the last day rendered ("2023-06-11"), reused by later timestamps.
  int64_t cached_day_ = INT64_MIN;
  char day_text_[10];
};

// Renders `nanos` exactly as AppendRfc3339 does, at p (room for 40 bytes); returns the end.
// `cached_day` / `day_text` memoise the date part between calls (cached_day INT64_MIN: none).
char* WriteRfc3339(char* p, int64_t nanos, int64_t* cached_day, char day_text[10]);

}  // namespace gnomon::server::api
