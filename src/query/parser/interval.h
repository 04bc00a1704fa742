// Interval strings -> nanoseconds: the width in time_bucket('60 seconds', time), the text of
// INTERVAL '1 hour 30 minutes', and InfluxQL-style duration literals (10m, 1h30m).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "src/base/result.h"

namespace gnomon::query {

// Parses a fixed-length interval into signed nanoseconds. Accepted (case-insensitive):
//   '60 seconds', '1 minute', '12 hours', '1 day', '1 week', '10 mins', '1.5 hours', '-1 hour'
//   compact forms '1h', '10s', '5ms', '100us', '1h30m', '1d'
//   combinations '1 hour 30 minutes', '1 day 02:30:00', clock form '01:30:00', '00:00:00.5'
//   a bare number '60' (seconds, as in PostgreSQL)
// Units: ns/nsec/nanosecond(s), us/µs/usec/microsecond(s), ms/msec/millisecond(s),
// s/sec(s)/second(s), m/min(s)/minute(s), h/hr(s)/hour(s), d/day(s), w/week(s). A day is 24 h
// and a week 7 days (UTC, no DST). Each component carries its own sign ('-1 hour 30 minutes' is
// -30 minutes, as in PostgreSQL). Fractions are exact to the nanosecond (finer digits truncate).
// Errors: InvalidArgument for empty text, unknown or calendar units (month, year: not a fixed
// length) and malformed numbers; OutOfRange when the total does not fit int64 nanoseconds.
Result<int64_t> ParseInterval(std::string_view text);

// Renders nanoseconds as text ParseInterval reads back exactly: "1 hour 30 minutes",
// "2 days", "1 second 500 milliseconds", "0 seconds"; a negative interval negates each part.
std::string FormatInterval(int64_t nanos);

}  // namespace gnomon::query
