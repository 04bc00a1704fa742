// Parsing of the time flags TSBS accepts: RFC 3339 timestamps (Go's time.RFC3339 layout) and Go
// duration strings (time.ParseDuration syntax, e.g. "10s", "1m30s", "1.5h", "500ms").
#pragma once

#include <cstdint>
#include <string_view>

#include "src/base/result.h"

namespace gnomon::bench {

// "2023-06-11T00:00:00Z", "2023-06-11T02:00:00.5+02:00" -> nanoseconds since the Unix epoch (UTC).
Result<int64_t> ParseRfc3339Nanos(std::string_view text);

// Go duration syntax -> nanoseconds. Units: ns, us, µs, ms, s, m, h; an optional sign; "0" alone.
Result<int64_t> ParseGoDuration(std::string_view text);

}  // namespace gnomon::bench
