// InfluxQL's bound parameters: /query's `params` is a JSON object, and each `$name` in the query
// text reads as the token its value makes (InfluxDB 1.x's rules):
//   "text" -> a 'string'        4 -> an integer        4.5, 1e3 -> a number    true -> a boolean
//   {"identifier": "cpu"}, {"string": ...}, {"integer": ...}, {"number": ...}, {"boolean": ...},
//   {"duration": "10m" | nanoseconds}, {"regex": "^a"} -> that kind of token.
// So `WHERE host = $h` binds a value, `FROM $m` needs {"identifier": ...}, `time($d)` a duration.
#pragma once

#include <string_view>

#include "src/base/result.h"
#include "src/query/influxql/influxql_lexer.h"

namespace gnomon::query::influxql {

// InvalidArgument for text that is not a JSON object or a value that binds to no token.
Result<BoundParams> ParseBoundParams(std::string_view json);

}  // namespace gnomon::query::influxql
