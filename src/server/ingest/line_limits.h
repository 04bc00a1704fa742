// The per-line limits of line-protocol ingest (docs/reliability.md, "Limits"). A line past one is
// rejected with its own error, as a malformed line is; the rest of the request is unaffected
// (v3's partial writes keep the other lines). 0 for any of them: no limit.
#pragma once

#include <cstddef>

namespace gnomon::server {

struct LineLimits {
  size_t max_line_bytes = 1 << 20;           // max-line-bytes: a line, without its '\n'
  size_t max_tags = 256;                     // max-tags-per-line
  size_t max_fields = 1024;                  // max-fields-per-line
  size_t max_tag_value_bytes = 64 << 10;     // max-tag-value-bytes (InfluxDB's series-key bound)
  size_t max_string_field_bytes = 64 << 10;  // max-string-field-bytes (InfluxDB's string limit)
};

}  // namespace gnomon::server
