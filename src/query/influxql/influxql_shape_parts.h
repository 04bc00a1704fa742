// Pieces every InfluxQL statement shape shares: the group tags' columns, the WHERE clause with
// the ranges handed down from outer queries, bucket ranges, and the final order and per-series
// LIMIT/OFFSET.
#pragma once

#include <string>
#include <vector>

#include "src/base/result.h"
#include "src/query/influxql/influxql_query_shapes.h"

namespace gnomon::query::influxql {

const Expr& Unparen(const Expr& e);
// `"tag" AS "tag", ` for each group tag (a NULL string where the relation lacks it).
std::string TagPrefix(const ShapeInput& in);
// `"tag", ` for each group tag.
std::string QuotedTags(const ShapeInput& in);
// "1, 2, ..., n".
std::string Ordinals(size_t n);
// The columns of a shaped body, by name: tags, time, values.
std::string ColumnList(const ShapeInput& in, const std::vector<std::string>& names);
// " WHERE ..." (or nothing): the statement's condition, the outer range, and `extra`.
Result<std::string> Where(const ShapeInput& in, const std::string& extra);
// The GROUP BY time() bucket of `column`: date_bin(interval, column, offset). Needs in.time_dim.
std::string BucketOf(const ShapeInput& in, const std::string& column);
// ", 'zone'" for a statement with tz('zone') other than UTC, the last argument of its date_bin
// and date_bin_gapfill calls; else nothing.
std::string ZoneArgument(const ShapeInput& in);
// The time bounds that make GROUP BY time() buckets span the statement's range.
std::string BucketRange(const ShapeInput& in);
// Series in tag order, points in time order (both reversed by ORDER BY time DESC); `tie_break`
// orders rows of one time (", <ordinal or expression>...").
std::string OrderBy(const ShapeInput& in, const std::string& tie_break);
// `body` in that order, with LIMIT/OFFSET applied within each series.
std::string Finish(const ShapeInput& in, const std::string& body, const std::vector<std::string>& names,
                   const std::string& tie_break = "");

}  // namespace gnomon::query::influxql
