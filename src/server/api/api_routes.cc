#include "src/server/api/api_routes.h"

#include "src/server/api/auth_guard.h"
#include "src/server/api/error_writer.h"
#include "src/server/api/handlers.h"

namespace gnomon::server::api {

void RegisterApiRoutes(ApiContext* ctx, http::Router* router) {
  using auth::Access;
  using http::Method;
  using Plain = void (*)(ApiContext&, const http::Request&, http::Response*);
  using WithCaller = void (*)(ApiContext&, const http::Request&, const Caller&, http::Response*);
  auto open = [ctx](Plain fn) {
    return [ctx, fn](const http::Request& request, http::Response* response) {
      fn(*ctx, request, response);
    };
  };
  // Behind authentication (auth_guard.h): `access` on the database named by `db_param`.
  auto guarded = [ctx](ApiDialect d, Access access, std::string db_param, Plain fn) {
    return Guard(ctx, d, RouteAccess{access, std::move(db_param)},
                 [ctx, fn](const http::Request& request, const Caller&, http::Response* response) {
                   fn(*ctx, request, response);
                 });
  };
  // Behind authentication; the handler checks each database it touches with the Caller.
  auto guarded_caller = [ctx](WithCaller fn) {
    return Guard(ctx, ApiDialect::kV1, RouteAccess{Access::kRead, ""},
                 [ctx, fn](const http::Request& request, const Caller& caller,
                           http::Response* response) { fn(*ctx, request, caller, response); });
  };
  auto dialect = [](ApiDialect d) {
    return [d](int status, std::string_view message, http::Response* response) {
      WriteApiError(d, status, message, response);
    };
  };
  const auto v1 = ApiDialect::kV1;
  router->Add(Method::kPost, "/write", "write_v1", guarded(v1, Access::kWrite, "db", HandleWriteV1),
              dialect(v1));
  router->Add(Method::kPost, "/api/v2/write", "write_v2",
              guarded(ApiDialect::kV2, Access::kWrite, "bucket", HandleWriteV2),
              dialect(ApiDialect::kV2));
  router->Add(Method::kPost, "/api/v3/write_lp", "write_v3",
              guarded(ApiDialect::kV3, Access::kWrite, "db", HandleWriteV3),
              dialect(ApiDialect::kV3));
  router->Add(Method::kGet, "/ping", "ping", open(HandlePing));
  router->Add(Method::kGet, "/health", "health", open(HandleHealth));
  router->Add(Method::kGet, "/metrics", "metrics", guarded(v1, Access::kRead, "", HandleMetrics));
  router->Add(Method::kGet, "/query", "query", guarded_caller(HandleQuery));
  router->Add(Method::kPost, "/query", "query", guarded_caller(HandleQuery));
  // InfluxDB 3's InfluxQL endpoint takes the same parameters and answers the same JSON.
  router->Add(Method::kGet, "/api/v3/query_influxql", "query_influxql", guarded_caller(HandleQuery));
  router->Add(Method::kPost, "/api/v3/query_influxql", "query_influxql", guarded_caller(HandleQuery));
  router->Add(Method::kPost, "/v1/sql", "sql", guarded_caller(HandleSql));
  router->Add(Method::kGet, "/v1/sql", "sql", guarded_caller(HandleSql));
  router->Add(Method::kPost, "/v1/admin/flush", "admin_flush",
              guarded(v1, Access::kAdmin, "", HandleAdminFlush));
  router->Add(Method::kPost, "/v1/admin/compact", "admin_compact",
              guarded(v1, Access::kAdmin, "", HandleAdminCompact));
  router->Add(Method::kPost, "/v1/admin/retention", "admin_retention",
              guarded(v1, Access::kAdmin, "", HandleAdminRetention));
  router->Add(Method::kGet, "/v1/admin/tokens", "admin_tokens",
              guarded(v1, Access::kAdmin, "", HandleTokenList));
  router->Add(Method::kPost, "/v1/admin/tokens", "admin_tokens",
              guarded(v1, Access::kAdmin, "", HandleTokenCreate));
  router->Add(Method::kDelete, "/v1/admin/tokens", "admin_tokens",
              guarded(v1, Access::kAdmin, "", HandleTokenRevoke));
}

std::vector<std::pair<std::string, std::string>> DefaultResponseHeaders(const ApiContext& ctx) {
  return {{"X-Influxdb-Version", ctx.influx_version},
          {"X-Influxdb-Build", "OSS"},
          {"X-Gnomon-Version", ctx.version}};
}

}  // namespace gnomon::server::api
