// POST /write (InfluxDB 1.x). `rp` (retention policy), `consistency`, `u`/`p` are accepted and
// ignored: Gnomon has one retention per database and no authentication yet.
#include "src/server/api/handlers.h"
#include "src/server/api/write_executor.h"

namespace gnomon::server::api {

void HandleWriteV1(ApiContext& ctx, const http::Request& request, http::Response* response) {
  WriteParams params;
  params.dialect = ApiDialect::kV1;
  params.database = std::string(request.query.GetOr("db", ""));
  if (params.database.empty()) {
    return WriteApiError(ApiDialect::kV1, 400, "database is required", response);
  }
  auto precision = ParsePrecision(request.query.GetOr("precision", ""), /*allow_v1_units=*/true);
  if (!precision.ok()) {
    return WriteApiError(ApiDialect::kV1, 400, precision.status().message(), response);
  }
  params.precision = *precision;
  ExecuteWrite(ctx, params, request, response);
}

}  // namespace gnomon::server::api
