// InfluxDB line protocol ingest: the API the HTTP write endpoints (/write, /api/v2/write,
// /api/v3/write_lp) call. docs/line-protocol.md states the accepted grammar and every error.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "src/base/result.h"
#include "src/server/ingest/line_limits.h"
#include "src/server/ingest/precision.h"
#include "src/storage/engine.h"
#include "src/storage/write_batch.h"

namespace gnomon::server {

struct LineError {
  uint32_t line;        // 1-based line number in the body
  uint32_t column;      // 1-based byte column where the problem was found
  std::string text;     // the offending line (truncated to 200 bytes, at a UTF-8 boundary)
  std::string reason;   // e.g. "invalid field value: 12x is not a number", "missing field set"
};

struct ParseOptions {
  Precision precision = Precision::kNanosecond;
  int64_t default_time_ns = 0;  // time for lines without a timestamp (the server's receive time)
  size_t max_errors = 100;      // stop collecting errors after this many (still count them)
  LineLimits limits;
  // When set, series of batch->database() that the engine already has are added by id (see
  // BatchBuilder); else every series is added with its tags.
  storage::Engine* engine = nullptr;
};

struct ParseResult {
  size_t lines_accepted = 0;
  size_t lines_rejected = 0;
  std::vector<LineError> errors;
};

// Parses the whole body; every good line is appended to *batch (table per measurement, series
// with canonical tag sets, fields typed), every bad line is left out and reported. The caller
// decides all-or-nothing vs partial. A field whose type differs from the same field earlier IN
// THIS BATCH is a line error ("field usage_user: type int64 conflicts with float64 earlier in this
// request"); conflicts with the stored schema are the engine's job. A rejected line leaves no
// trace in *batch (no row, table, series or field). Blank lines and comments count as neither.
// Thread-compatible: concurrent calls need distinct batches.
ParseResult ParseLineProtocol(std::string_view body, const ParseOptions& options,
                              storage::WriteBatch* batch);

}  // namespace gnomon::server
