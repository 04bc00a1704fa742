// InfluxQL SELECT -> SQL for the one query engine. Each measurement a statement reads becomes one
// SQL query whose rows come out as (series tags..., time, values...), ordered by series and time;
// the /query layer cuts them into InfluxDB's series. The SQL goes through the same binder,
// logical plan, optimizer rules and operators as any SQL query (EXPLAIN shows it).
//
// Semantics follow InfluxDB 1.x: GROUP BY time() fills empty buckets (fill(null) unless told),
// LIMIT/OFFSET count points within each series, an aggregate without GROUP BY time() is stamped
// with the start of the time range (a lone selector with its point's time), names the schema does
// not hold read as null, and `tag = ''` matches points without the tag.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "src/base/result.h"
#include "src/base/time_zone.h"
#include "src/base/value_type.h"
#include "src/query/influxql/influxql_ast.h"

namespace gnomon::query::influxql {

// What the compiler needs to know of one measurement.
struct MeasurementSchema {
  std::vector<std::string> tags;  // sorted
  std::vector<std::pair<std::string, ValueType>> fields;
};

struct CompileContext {
  std::string database;  // the request's db; FROM db.rp.m overrides it
  int64_t now_ns = 0;
  // The schema of database.measurement, or nullopt when it does not exist.
  std::function<Result<std::optional<MeasurementSchema>>(const std::string& database, const std::string& measurement)>
      schema;
  // The measurements of a database (for FROM /regex/).
  std::function<Result<std::vector<std::string>>(const std::string& database)> measurements;
  // Set while compiling a subquery: the tags its outer queries group by. InfluxDB passes them
  // down, so the subquery groups by them too and its rows carry them.
  // Likewise the time bounds (inclusive) of the outer queries' WHERE: InfluxDB narrows the
  // subquery's range to them.
  bool subquery = false;
  std::vector<std::string> outer_group_tags;
  std::optional<int64_t> outer_lower, outer_upper;
};

// One measurement's part of a statement's answer.
struct CompiledSelect {
  std::string database;
  std::string measurement;           // the series' "name"
  std::string sql;
  std::vector<std::string> tag_keys;  // the first tag_keys.size() result columns name the series
  std::vector<std::string> columns;   // the remaining result columns: "time", then the values
  int64_t slimit = 0, soffset = 0;    // applied to the series as they come
  std::shared_ptr<const TimeZone> zone;  // tz(): times rendered at its offsets; null for UTC
};

// Empty when no measurement matches (InfluxDB then answers an empty result).
// InvalidArgument with InfluxDB's wording for statements it would refuse.
Result<std::vector<CompiledSelect>> CompileSelect(const SelectStatement& select, const CompileContext& ctx);

}  // namespace gnomon::query::influxql
