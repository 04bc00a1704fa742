#include "src/server/ingest/line_protocol.h"

#include "src/server/ingest/batch_builder.h"
#include "src/server/ingest/byte_scan.h"
#include "src/server/ingest/line_protocol_parser.h"
#include "src/server/ingest/utf8.h"

namespace gnomon::server {
namespace {

constexpr size_t kMaxErrorTextBytes = 200;

}  // namespace

ParseResult ParseLineProtocol(std::string_view body, const ParseOptions& options,
                              storage::WriteBatch* batch) {
  ParseResult result;
  LineParser parser;
  BatchBuilder builder(batch);
  ParsedLine parsed;
  LineSyntaxError error;

  auto reject = [&](std::string_view line, uint32_t line_no) {
    ++result.lines_rejected;
    if (result.errors.size() >= options.max_errors) return;
    result.errors.push_back(LineError{line_no, error.offset + 1,
                                      std::string(internal::TruncateUtf8(line, kMaxErrorTextBytes)),
                                      std::move(error.reason)});
  };

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

    if (!parser.Parse(line, &parsed, &error)) {
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
    if (!builder.Add(parsed, time_ns, line_no, &error)) {
      reject(line, line_no);
      continue;
    }
    ++result.lines_accepted;
  }
  return result;
}

}  // namespace gnomon::server
