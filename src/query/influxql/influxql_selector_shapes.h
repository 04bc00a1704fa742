// InfluxQL's functions that need more than a SQL aggregate over each group: top(), bottom() (the
// points with the largest or smallest values, at their own times), distinct() (each value once)
// and integral() (the area under consecutive points, split at bucket ends).
#pragma once

#include <string>

#include "src/base/result.h"
#include "src/query/influxql/influxql_query_shapes.h"

namespace gnomon::query::influxql {

bool IsMultiPointSelector(const std::string& fn);
// The SQL of a statement whose fields hold one of those calls.
Result<std::string> MultiPointSelectorSql(const ShapeInput& in);

}  // namespace gnomon::query::influxql
