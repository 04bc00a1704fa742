// InfluxQL text -> statements. Several statements are separated by ';'.
#pragma once

#include <string_view>
#include <vector>

#include "src/base/result.h"
#include "src/query/influxql/influxql_ast.h"

namespace gnomon::query::influxql {

// InvalidArgument worded as InfluxDB words it ("found EOF, expected identifier at line 1,
// char 17") when any statement is malformed; then none of them should run.
Result<std::vector<Statement>> ParseQuery(std::string_view text);

}  // namespace gnomon::query::influxql
