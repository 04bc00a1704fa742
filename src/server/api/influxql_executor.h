// Runs parsed InfluxQL statements for /query: SELECTs compile to SQL for the query engine and
// come back as InfluxDB series; SHOW queries read the catalog (and the engine, where a WHERE
// clause filters); CREATE/DROP and DELETE change the databases.
#pragma once

#include <cstdint>
#include <string>

#include "src/query/influxql/influxql_ast.h"
#include "src/server/api/api_context.h"
#include "src/server/api/caller.h"
#include "src/server/api/influxql_answer.h"
#include "src/server/api/influxql_series_writer.h"

namespace gnomon::server::api {

struct InfluxqlRequest {
  std::string database;  // db=
  int64_t now_ns = 0;    // now() for every statement of the request
  const Caller* caller = nullptr;
  AnswerFlush flush;     // after each chunk of a SELECT's rows (may be empty)
};

// Runs one statement, writing its series to `out` (between the caller's BeginStatement and
// EndStatement). A failure is returned, not written: the caller reports it.
Status ExecuteInfluxql(ApiContext& ctx, const query::influxql::Statement& st, const InfluxqlRequest& req,
                       InfluxAnswer* out);

// What the statement needs of the caller: changes need write access to their database, the rest
// read access (SHOW DATABASES lists only what the caller may read).
Status AuthorizeInfluxql(const query::influxql::Statement& st, std::string_view database, const Caller& caller);

}  // namespace gnomon::server::api
