#include "src/server/ingest/line_protocol.h"

#include <algorithm>

#include "src/server/ingest/batch_builder.h"
#include "src/server/ingest/byte_scan.h"
#include "src/server/ingest/line_protocol_parser.h"
#include "src/server/ingest/utf8.h"

namespace gnomon::server {
namespace {

constexpr size_t kMaxErrorTextBytes = 200;

// Reserves a table just created by its first line (`line_bytes` long with `fields` values) for the
// rest of the body, assuming its lines look like the first. The estimate is capped by *budget
// (bytes, shared by all tables of the body) so that a short first line followed by long ones, or
// many tables, cannot reserve much more memory than the body itself.
void ReserveNewTable(storage::TableBatch* table, size_t line_bytes, size_t fields,
                     size_t bytes_left, size_t* budget) {
  size_t rows = bytes_left / line_bytes + 1;
  const size_t row_bytes = sizeof(storage::Row) + fields * sizeof(storage::FieldValue);
  rows = std::min(rows, *budget / row_bytes);
  if (rows < 2) return;
  table->Reserve(rows, rows * fields);
  *budget -= rows * row_bytes;
}

// The series key of the line that starts at `p` as LineParser::Parse will cut it (up to the
// first unescaped space), for BatchBuilder::Prefetch. A line it misreads costs only a wasted
// prefetch: Add matches the key by its bytes' address and length.
std::string_view PeekSeriesKey(const char* p, const char* end) {
  while (p < end && (*p == ' ' || *p == '\t')) ++p;
  return std::string_view(p, static_cast<size_t>(internal::SeriesKeyEnd(p, end) - p));
}

}  // namespace

ParseResult ParseLineProtocol(std::string_view body, const ParseOptions& options,
                              storage::WriteBatch* batch) {
  ParseResult result;
  LineParser parser;
  BatchBuilder builder(batch, options.engine, options.limits);
  ParsedLine parsed;
  LineSyntaxError error;

  auto reject = [&](std::string_view line, uint32_t line_no) {
    ++result.lines_rejected;
    if (result.errors.size() >= options.max_errors) return;
    result.errors.push_back(LineError{line_no, error.offset + 1,
                                      std::string(internal::TruncateUtf8(line, kMaxErrorTextBytes)),
                                      std::move(error.reason)});
  };

  // Growing the row and value arrays by doubling copies them and faults in fresh pages several
  // times per request; reserving once from the body size avoids both.
  size_t reserve_budget = 2 * body.size();
  const char* p = body.data();
  const char* const end = p + body.size();
  uint32_t line_no = 0;
  while (p < end) {
    if (line_no < UINT32_MAX) ++line_no;
    const char* eol = internal::FindByte(p, end, '\n');
    std::string_view line(p, static_cast<size_t>(eol - p));
    p = eol < end ? eol + 1 : end;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);

    size_t first = 0;
    while (first < line.size() && (line[first] == ' ' || line[first] == '\t')) ++first;
    if (first == line.size() || line[first] == '#') continue;  // blank line or comment

    if (options.limits.max_line_bytes != 0 && line.size() > options.limits.max_line_bytes) {
      error.offset = static_cast<uint32_t>(options.limits.max_line_bytes);
      error.reason = "line of " + std::to_string(line.size()) + " bytes is longer than the limit of " +
                     std::to_string(options.limits.max_line_bytes) + " (max-line-bytes)";
      reject(line, line_no);
      continue;
    }
    if (!parser.Parse(line, &parsed, &error)) {
      reject(line, line_no);
      continue;
    }
    if (options.limits.max_fields != 0 && parsed.fields.size() > options.limits.max_fields) {
      error.offset = parsed.fields[options.limits.max_fields].offset;
      error.reason = "line has " + std::to_string(parsed.fields.size()) + " fields, more than the limit of " +
                     std::to_string(options.limits.max_fields) + " (max-fields-per-line)";
      reject(line, line_no);
      continue;
    }
    int64_t time_ns = options.default_time_ns;
    if (parsed.has_timestamp && !ScaleToNanos(parsed.timestamp, options.precision, &time_ns)) {
      error.offset = parsed.timestamp_offset;
      error.reason = "timestamp " + std::to_string(parsed.timestamp) + " out of range for precision " +
                     std::string(PrecisionName(options.precision));
      reject(line, line_no);
      continue;
    }
    // With millions of series the cross-request cache misses the CPU's caches on every line:
    // start loading the next line's entry now, so the miss overlaps this line's work.
    if (p < end && builder.WantsPrefetch()) builder.Prefetch(PeekSeriesKey(p, end));
    const size_t tables_before = batch->tables().size();
    if (!builder.Add(parsed, time_ns, line_no, &error)) {
      reject(line, line_no);
      continue;
    }
    if (batch->tables().size() != tables_before) {
      ReserveNewTable(batch->tables().back().get(), line.size() + 1, parsed.fields.size(),
                      static_cast<size_t>(end - line.data()), &reserve_budget);
    }
    ++result.lines_accepted;
  }
  return result;
}

}  // namespace gnomon::server
