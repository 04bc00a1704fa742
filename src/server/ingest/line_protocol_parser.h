// The line-protocol tokenizer: splits one line into its series key, typed field values and
// timestamp, without touching any batch. Zero-copy: views point into the line, or into the
// parser's scratch buffer when a token had to be unescaped (only when it contains a backslash).
//
// Grammar (docs/line-protocol.md has the full rules and the error list):
//   measurement[,tag_key=tag_value...] field_key=field_value[,field_key=field_value...] [timestamp]
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "src/base/value_type.h"

namespace gnomon::server {

// Why a line is malformed: `offset` is the 0-based byte offset in the line where it was found.
struct LineSyntaxError {
  uint32_t offset = 0;
  std::string reason;
};

struct ParsedTag {
  std::string_view key;    // unescaped, non-empty
  std::string_view value;  // unescaped, non-empty
  uint32_t offset;         // of the key's first byte in the line
};

struct ParsedField {
  std::string_view key;  // unescaped, non-empty
  uint32_t offset;       // of the key's first byte in the line
  ValueType type;        // kFloat64, kInt64, kUInt64, kBool or kString
  union {
    double f64;
    int64_t i64;
    uint64_t u64;
    bool b;
  };
  std::string_view str;  // the unescaped string when type == kString
};

struct ParsedLine {
  // Measurement and tag section exactly as written (escapes kept). Equal bytes always parse to the
  // same measurement and tags, so it can key a cache of resolved series.
  std::string_view series_key;
  uint32_t series_key_offset = 0;
  std::vector<ParsedField> fields;  // in line order, at least one
  bool has_timestamp = false;
  int64_t timestamp = 0;  // raw, in the body's precision
  uint32_t timestamp_offset = 0;
};

class LineParser {
 public:
  LineParser() = default;
  LineParser(const LineParser&) = delete;
  LineParser& operator=(const LineParser&) = delete;

  // Tokenises one line: `line` holds no '\n' (a trailing '\r' is already removed), may start and
  // end with spaces or tabs, and is neither blank nor a comment. Checks the whole syntax of the
  // field set and timestamp; the series key is only delimited (ParseSeriesKey validates it).
  // Views in *out stay valid until the next Parse. Returns false and fills *error when malformed.
  bool Parse(std::string_view line, ParsedLine* out, LineSyntaxError* error);

  // Splits a series key (as found by Parse) into the measurement and the tags in line order,
  // unescaped, and validates it: non-empty measurement, keys and values; every tag has '='; no
  // unescaped '=' in a value. `key_offset` is the key's offset in its line, for error offsets.
  // Duplicate keys are not checked here (the builder does it after sorting). Views stay valid
  // until the next ParseSeriesKey. Returns false and fills *error when malformed.
  bool ParseSeriesKey(std::string_view series_key, uint32_t key_offset,
                      std::string_view* measurement, std::vector<ParsedTag>* tags,
                      LineSyntaxError* error);

 private:
  std::string field_scratch_;  // unescaped field keys and string values of the current line
  std::string key_scratch_;    // unescaped measurement, tag keys and tag values
};

// Escape-aware unescaping of names. Measurement: "\," "\ " "\\" become the escaped byte;
// tag keys, tag values and field keys also "\=". Any other backslash is kept literally.
// `out` must have room for in.size() bytes; returns the number of bytes written.
size_t UnescapeMeasurement(std::string_view in, char* out);
size_t UnescapeName(std::string_view in, char* out);
// String field values: "\"" and "\\" become '"' and '\'; any other backslash is kept.
size_t UnescapeStringValue(std::string_view in, char* out);

}  // namespace gnomon::server
