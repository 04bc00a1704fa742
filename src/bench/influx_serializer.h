// Influx line protocol exactly as TSBS's influx serializer prints a Point:
//   <measurement>{,<tag>=<value>} <fields> <timestamp-ns>\n
// String tags in order (null tags omitted); non-string (float32) tags become fields placed before the
// real fields; null fields omitted; integers get an 'i' suffix; floats use the shortest round-trip
// digits in plain decimal (Go's strconv.FormatFloat(v, 'f', -1, 64|32)); a point whose fields are all
// null prints nothing. No escaping: no generated value contains a space, comma or '='.
#pragma once

#include <cstddef>

#include "src/bench/point.h"

namespace gnomon::bench {

// An upper bound on the bytes AppendInfluxLine writes for `p`.
size_t InfluxLineBound(const Point& p);

// Writes the line for `p` at `out` and returns the end. REQUIRES: InfluxLineBound(p) bytes of room.
char* AppendInfluxLine(const Point& p, char* out);

// Number formatting shared with other writers. Each returns the end of what it wrote.
char* FormatInt64(int64_t v, char* out);    // up to 20 bytes
char* FormatFloat64(double v, char* out);   // Go 'f', -1, 64; up to 330 bytes
char* FormatFloat32(float v, char* out);    // Go 'f', -1, 32; up to 50 bytes

}  // namespace gnomon::bench
