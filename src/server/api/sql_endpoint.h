// The /v1/sql endpoint: GET|POST /v1/sql?db=NAME with the statement in the `sql` query parameter,
// a form body (application/x-www-form-urlencoded, sql=...) or a plain-text body. Answers JSON
// (default) or CSV (format=csv); epoch=ns|us|ms|s gives integer timestamps.
// Errors: 400 {"error": "..."} (syntax errors point at line and column; unknown table, column or
// function named), 404 for an unknown database, 408 for a query over its time limit.
#pragma once

#include "src/query/query_engine.h"
#include "src/server/http/http_message.h"

namespace gnomon::server::api {

http::Handler MakeSqlHandler(query::QueryEngine* engine);

}  // namespace gnomon::server::api
