// Writers that turn a query's streamed result into response bytes: JSON
// {"columns":[{"name":..,"type":..}],"rows":[[..],..]} or CSV with a header line.
// Each writes incrementally into `out`; the caller may drain `out` between chunks.
//
// Rows are rendered into a scratch buffer with room checked per row and per string (no per-byte
// appends): integers with std::to_chars, floats with FormatDouble (std::to_chars' bytes, faster),
// strings copied whole unless they need escaping, timestamps with the calendar date computed once
// per day. Large chunks render in two halves at once when given a TaskPool (the query engine's).
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "src/query/result.h"

namespace gnomon {
class TaskPool;
}

namespace gnomon::server::api {

enum class ResultFormat { kJson, kCsv };
// Integer timestamps in this unit instead of RFC 3339 strings (epoch=ns|us|ms|s).
enum class EpochUnit { kNone, kNanosecond, kMicrosecond, kMillisecond, kSecond };

class ResultWriter : public query::ResultSink {
 public:
  // `pool`: where the second half of a large chunk renders; nullptr renders every row here.
  ResultWriter(ResultFormat format, EpochUnit epoch, std::string* out, TaskPool* pool = nullptr)
      : format_(format), epoch_(epoch), out_(out), pool_(pool) {}

  Status Begin(const std::vector<query::ResultColumn>& columns) override;
  Status Chunk(const query::ResultChunk& chunk) override;
  Status End(const query::QueryStats& stats) override;
  bool AcceptsConstantVectors() const override { return true; }

  bool begun() const { return begun_; }
  uint64_t rows() const { return rows_; }

 private:
  // Renders rows [begin, end) of `chunk` onto out_.
  void RenderRows(const query::ResultChunk& chunk, size_t begin, size_t end);
  // Upper bound of the bytes one row of `chunk` renders to, strings not counted.
  size_t FixedRowBound(const query::ResultChunk& chunk) const;
  // Renders one cell at p; returns the end. p must have room for the cell's bound.
  char* WriteCell(char* p, const query::ResultVector& v, size_t row);
  char* WriteTimestamp(char* p, int64_t nanos);

  ResultFormat format_;
  EpochUnit epoch_;
  std::string* out_;
  TaskPool* pool_;
  std::vector<query::ResultColumn> columns_;
  bool begun_ = false;
  uint64_t rows_ = 0;
  std::unique_ptr<char[]> scratch_;
  std::vector<std::string> constant_text_;  // per column of the chunk being rendered
  size_t scratch_size_ = 0;
  // RFC 3339 date text of the last day rendered ("2023-06-11"), reused by later timestamps.
  int64_t cached_day_ = INT64_MIN;
  char day_text_[10];
  // Large chunks: the second half renders by helper_ into helper_text_.
  std::string helper_text_;
  std::unique_ptr<ResultWriter> helper_;
};

// Renders `nanos` exactly as AppendRfc3339 does, at p (room for 40 bytes); returns the end.
// `cached_day` / `day_text` memoise the date part between calls (cached_day INT64_MIN: none).
char* WriteRfc3339(char* p, int64_t nanos, int64_t* cached_day, char day_text[10]);

}  // namespace gnomon::server::api
