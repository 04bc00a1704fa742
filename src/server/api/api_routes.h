// RegisterApiRoutes: binds every endpoint of the HTTP API (docs/http-api.md) to `router`.
#pragma once

#include "src/server/api/api_context.h"
#include "src/server/http/router.h"

namespace gnomon::server::api {

// `ctx` must outlive the router's use.
void RegisterApiRoutes(ApiContext* ctx, http::Router* router);

// Headers for every response (X-Influxdb-Version, X-Influxdb-Build, X-Gnomon-Version); pass
// them to http::ServerOptions::default_headers.
std::vector<std::pair<std::string, std::string>> DefaultResponseHeaders(const ApiContext& ctx);

}  // namespace gnomon::server::api
