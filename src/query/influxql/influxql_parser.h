// InfluxQL text -> statements. Several statements are separated by ';'.
#pragma once

#include <string_view>
#include <vector>

#include "src/base/result.h"
#include "src/query/influxql/influxql_ast.h"
#include "src/query/influxql/influxql_lexer.h"

namespace gnomon::query::influxql {

// InvalidArgument worded as InfluxDB words it ("found EOF, expected identifier at line 1,
// char 17") when any statement is malformed; then none of them should run.
// `params`: what `$name`s read as (may be null: a `$name` is then an error).
Result<std::vector<Statement>> ParseQuery(std::string_view text, const BoundParams* params = nullptr);

}  // namespace gnomon::query::influxql
