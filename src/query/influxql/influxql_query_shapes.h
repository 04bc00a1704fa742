// The SQL of one InfluxQL SELECT over one relation, in one of its shapes: raw points, aggregates
// (per time bucket or over the whole range) or transformations (difference, derivative, ...).
// Rows come out as (group tags..., time, values...) ordered by series, then time.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "src/base/result.h"
#include "src/query/influxql/influxql_compiler_internal.h"

namespace gnomon::query::influxql {

struct ShapeInput {
  const SelectStatement* select = nullptr;
  const Relation* rel = nullptr;
  int64_t now_ns = 0;
  std::vector<std::string> group_tags;  // sorted
  std::optional<Dimension> time_dim;
  std::vector<Field> fields;   // expanded
  std::vector<std::string> names;  // output names of `fields`
  TimeRange range;        // of this WHERE and the outer queries' together
  TimeRange outer_range;  // what the outer queries' WHERE adds (a subquery's rows stay inside it)
};

Result<std::string> ShapeSql(const ShapeInput& in);

}  // namespace gnomon::query::influxql
