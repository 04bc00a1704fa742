// InfluxDB 3's precision=auto: the unit of a timestamp guessed from its magnitude
// (|t| < 5e9 seconds, < 5e12 milliseconds, < 5e15 microseconds, else nanoseconds), which is right
// for any time between 1970 and 2128 written in any of the four units.
#pragma once

#include <cstdint>
#include <string_view>

#include "src/server/ingest/precision.h"

namespace gnomon::server::api {

Precision PrecisionForMagnitude(int64_t timestamp);

// The precision of a body, judged from the first line that carries a timestamp; nanoseconds when
// no line does. The parser applies one precision per request, so a body mixing units is read in
// the unit of its first timestamped line (InfluxDB 3 judges each line; Gnomon's clients send one
// unit per request).
Precision DetectBodyPrecision(std::string_view body);

}  // namespace gnomon::server::api
