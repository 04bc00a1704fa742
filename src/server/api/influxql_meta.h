// InfluxQL's SHOW queries (measurements, tag keys and values, field keys, series, cardinality,
// retention policies) over the catalog and, for WHERE clauses, the query engine.
#pragma once

#include <string>

#include "src/query/influxql/influxql_ast.h"
#include "src/server/api/influxql_executor.h"

namespace gnomon::server::api {

// Writes the statement's series to `out`, or returns its error.
Status ExecuteShow(ApiContext& ctx, const query::influxql::Statement& st, const InfluxqlRequest& req,
                   const std::string& database, InfluxAnswer* out);

// Runs SQL against `database`, collecting its rows as text (NULL: empty, flagged in *nulls).
Status CollectRows(ApiContext& ctx, const InfluxqlRequest& req, const std::string& database, const std::string& sql,
                   std::vector<std::vector<std::string>>* rows);

// One series of text rows (`name` may be null), written even when it has no rows.
void NamedSeries(InfluxAnswer* out, const std::string* name, const std::vector<std::string>& columns,
                 const std::vector<std::vector<std::string>>& values);

// The schema InfluxQL sees of a table, or nullopt when it does not exist.
Result<std::optional<query::influxql::MeasurementSchema>> LookUpSchema(storage::Engine& engine, const std::string& db,
                                                                       const std::string& measurement);

}  // namespace gnomon::server::api
