// Timestamp strings -> int64 nanoseconds since the Unix epoch, UTC. The binder calls this when a
// string literal meets a timestamp (time >= '2023-06-11T02:17:08Z').
#pragma once

#include <cstdint>
#include <string_view>

#include "src/base/result.h"

namespace gnomon::query {

// Accepted forms (surrounding whitespace ignored):
//   YYYY-MM-DD                                  midnight
//   YYYY-MM-DD{T|t| }HH:MM[:SS[.f{1,9}]][ ][zone]
// where the fraction separator may be '.' or ',' and zone is Z, z, UTC, or a numeric offset
// +hh, +hhmm, +hh:mm (or -...), up to 15:59. Without a zone the time is UTC. Examples:
//   '2023-06-11T02:17:08Z', '2023-06-11 02:17:08.646325 +0000', '2023-06-11 02:17:08',
//   '2023-06-11T02:17:08.123456789-05:30'.
// Field ranges are checked (month 1-12, day within the month with Gregorian leap years,
// hour 0-23, minute 0-59, second 0-59). Errors: InvalidArgument naming the problem and the text;
// OutOfRange outside 1677-09-21T00:12:43.145224192Z .. 2262-04-11T23:47:16.854775807Z.
Result<int64_t> ParseTimeLiteral(std::string_view text);

}  // namespace gnomon::query
