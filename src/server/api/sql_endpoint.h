// The /v1/sql endpoint: GET|POST /v1/sql?db=NAME with the statement in the `sql` query parameter,
// a form body (application/x-www-form-urlencoded, sql=...) or a plain-text body. Answers JSON
// (default) or CSV (format=csv); epoch=ns|us|ms|s gives integer timestamps.
// Errors: 400 {"error": "..."} (syntax errors point at line and column; unknown table, column or
// function named), 404 for an unknown database, 408 for a query over its time limit.
//
// Large results stream: the answer is buffered up to limits.buffer_bytes, and a result that fits
// (or fails) within that is answered with Content-Length and its proper status, as above. Past it
// the 200 goes out with Transfer-Encoding: chunked and the rest follows in ~limits.flush_bytes
// pieces while the query runs. A query failing after that point ends the body without its last
// chunk and closes the connection (docs/http-api.md); a client that goes away stops the query.
#pragma once

#include "src/query/query_engine.h"
#include "src/server/api/result_stream.h"
#include "src/server/http/http_message.h"

namespace gnomon::server::api {

using SqlHandler =
    std::function<void(const http::Request&, const query::AccessCheck&, http::Response*)>;

// `engine` must outlive the handler. The statement may touch only what `access` allows (403).
SqlHandler MakeSqlEndpoint(query::QueryEngine* engine, ResultStreamLimits limits = {});
// The same without access limits, as a plain route handler (tests).
http::Handler MakeSqlHandler(query::QueryEngine* engine, ResultStreamLimits limits = {});

}  // namespace gnomon::server::api
