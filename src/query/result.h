// Query results as the API layer sees them: a schema, then a stream of columnar chunks.
// Writers (JSON, CSV) consume chunks as they come, so a large answer never sits whole in memory.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "src/base/status.h"
#include "src/base/value_type.h"

namespace gnomon::query {

struct ResultColumn {
  std::string name;
  ValueType type;  // kTimestamp for times (int64 ns UTC); kNull for an all-NULL literal column
};

// One column of a chunk. Exactly the vector matching `type` is filled, `rows` long.
struct ResultVector {
  ValueType type = ValueType::kNull;
  std::vector<int64_t> i64;  // kInt64 and kTimestamp
  std::vector<double> f64;
  std::vector<uint64_t> u64;
  std::vector<uint8_t> b;
  std::vector<std::string> str;
  std::vector<uint8_t> validity;  // empty: no NULLs; else one byte per row, 1 = value present
  // Every row holds the value stored at row 0 (a series' tag in a chunk of that series alone);
  // only one element (and at most one validity byte) is stored. Produced only for sinks that
  // AcceptsConstantVectors(), and only straight from a scan through a projection of columns.
  bool constant = false;
  // kString only: the values are `str_views` instead of `str`, views of bytes that outlive the
  // query's chunks (the series registry's tag values). Produced only for sinks that
  // AcceptsStringViews(), and only by an operator whose chunks reach the sink through projections
  // of columns (AllowStringViews): it saves copying every tag value of a large answer.
  bool views = false;
  std::vector<std::string_view> str_views;

  bool IsNull(size_t row) const { return !validity.empty() && validity[row] == 0; }
  std::string_view StrAt(size_t row) const { return views ? str_views[row] : std::string_view(str[row]); }
};

struct ResultChunk {
  size_t rows = 0;
  std::vector<ResultVector> columns;
};

// Execution statistics, reported by EXPLAIN ANALYZE and the API's timing headers.
struct QueryStats {
  uint64_t rows_returned = 0;
  uint64_t series_scanned = 0;
  uint64_t blocks_decoded = 0;
  uint64_t blocks_from_stats = 0;
  uint64_t blocks_pruned = 0;
  uint64_t rows_scanned = 0;
  int64_t elapsed_ns = 0;
};

// Receives a statement's result. Begin once, Chunk zero or more times, End once (only on success).
// A non-OK status from the sink aborts the query (e.g. the client went away).
class ResultSink {
 public:
  virtual ~ResultSink() = default;
  virtual Status Begin(const std::vector<ResultColumn>& columns) = 0;
  virtual Status Chunk(const ResultChunk& chunk) = 0;
  virtual Status End(const QueryStats& stats) = 0;
  // Whether Chunk() handles ResultVector::constant columns.
  virtual bool AcceptsConstantVectors() const { return false; }
  // Whether Chunk() handles ResultVector::views columns (reads strings through StrAt).
  virtual bool AcceptsStringViews() const { return false; }
};

}  // namespace gnomon::query
