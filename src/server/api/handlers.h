// The InfluxDB-compatible endpoint handlers, one per file (write_v1_handler.cc, ...).
// Each is a plain function over ApiContext, bound to a route in api_routes.cc.
#pragma once

#include "src/server/api/api_context.h"
#include "src/server/api/caller.h"
#include "src/server/http/http_message.h"

namespace gnomon::server::api {

// POST /write?db=&precision=&rp=&u=&p=   (InfluxDB 1.x)
void HandleWriteV1(ApiContext& ctx, const http::Request& request, http::Response* response);
// POST /api/v2/write?bucket=&org=&precision=   (InfluxDB 2.x; bucket = database)
void HandleWriteV2(ApiContext& ctx, const http::Request& request, http::Response* response);
// POST /api/v3/write_lp?db=&precision=&accept_partial=&no_sync=   (InfluxDB 3)
void HandleWriteV3(ApiContext& ctx, const http::Request& request, http::Response* response);
// GET|HEAD /ping: 204 with X-Influxdb-Version / X-Influxdb-Build (?verbose=true: 200 JSON).
void HandlePing(ApiContext& ctx, const http::Request& request, http::Response* response);
// GET /health: 200 {"status":"pass",...}.
void HandleHealth(ApiContext& ctx, const http::Request& request, http::Response* response);
// GET /metrics: Prometheus text exposition of the server's counters and engine statistics.
void HandleMetrics(ApiContext& ctx, const http::Request& request, http::Response* response);
// GET|POST /query?q=&db=   (InfluxQL, InfluxDB 1.x JSON results; database statements only).
// Each statement is checked against the caller's token before any runs (403 if one may not).
void HandleQuery(ApiContext& ctx, const http::Request& request, const Caller& caller,
                 http::Response* response);
// POST /v1/sql: ctx.sql_handler when set, else 501.
void HandleSql(ApiContext& ctx, const http::Request& request, const Caller& caller,
               http::Response* response);
// POST /v1/admin/flush: memtables written to segments now; 200 {"status":"ok","elapsed_ms":..}.
void HandleAdminFlush(ApiContext& ctx, const http::Request& request, http::Response* response);
// POST /v1/admin/compact: a flush, then every partition's segments merged into one.
void HandleAdminCompact(ApiContext& ctx, const http::Request& request, http::Response* response);
// POST /v1/admin/retention: every database's retention applied now (expired partitions dropped),
// as the background loop does once a minute.
void HandleAdminRetention(ApiContext& ctx, const http::Request& request, http::Response* response);
// GET /v1/admin/tokens: every token's name, access, databases and creation time (no secrets).
void HandleTokenList(ApiContext& ctx, const http::Request& request, http::Response* response);
// POST /v1/admin/tokens?name=&access=read|write|admin[&db=NAME...]: 201 with the new secret.
void HandleTokenCreate(ApiContext& ctx, const http::Request& request, http::Response* response);
// DELETE /v1/admin/tokens?name=: the token stops working at once.
void HandleTokenRevoke(ApiContext& ctx, const http::Request& request, http::Response* response);

}  // namespace gnomon::server::api
