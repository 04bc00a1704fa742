#include "src/server/api/api_routes.h"

#include "src/server/api/error_writer.h"
#include "src/server/api/handlers.h"

namespace gnomon::server::api {

void RegisterApiRoutes(ApiContext* ctx, http::Router* router) {
  using http::Method;
  auto bind = [ctx](void (*fn)(ApiContext&, const http::Request&, http::Response*)) {
    return [ctx, fn](const http::Request& request, http::Response* response) {
      fn(*ctx, request, response);
    };
  };
  auto dialect = [](ApiDialect d) {
    return [d](int status, std::string_view message, http::Response* response) {
      WriteApiError(d, status, message, response);
    };
  };
  router->Add(Method::kPost, "/write", "write_v1", bind(HandleWriteV1), dialect(ApiDialect::kV1));
  router->Add(Method::kPost, "/api/v2/write", "write_v2", bind(HandleWriteV2),
              dialect(ApiDialect::kV2));
  router->Add(Method::kPost, "/api/v3/write_lp", "write_v3", bind(HandleWriteV3),
              dialect(ApiDialect::kV3));
  router->Add(Method::kGet, "/ping", "ping", bind(HandlePing));
  router->Add(Method::kGet, "/health", "health", bind(HandleHealth));
  router->Add(Method::kGet, "/metrics", "metrics", bind(HandleMetrics));
  router->Add(Method::kGet, "/query", "query", bind(HandleQuery));
  router->Add(Method::kPost, "/query", "query", bind(HandleQuery));
  router->Add(Method::kPost, "/v1/sql", "sql", bind(HandleSql));
  router->Add(Method::kGet, "/v1/sql", "sql", bind(HandleSql));
  router->Add(Method::kPost, "/v1/admin/flush", "admin_flush", bind(HandleAdminFlush));
  router->Add(Method::kPost, "/v1/admin/compact", "admin_compact", bind(HandleAdminCompact));
}

std::vector<std::pair<std::string, std::string>> DefaultResponseHeaders(const ApiContext& ctx) {
  return {{"X-Influxdb-Version", ctx.influx_version},
          {"X-Influxdb-Build", "OSS"},
          {"X-Gnomon-Version", ctx.version}};
}

}  // namespace gnomon::server::api
