// POST /api/v2/write (InfluxDB 2.x). The bucket names the database; `org`/`orgID` are accepted
// and ignored (one organisation, no authentication yet).
#include "src/server/api/handlers.h"
#include "src/server/api/write_executor.h"

namespace gnomon::server::api {

void HandleWriteV2(ApiContext& ctx, const http::Request& request, http::Response* response) {
  WriteParams params;
  params.dialect = ApiDialect::kV2;
  params.database = std::string(request.query.GetOr("bucket", ""));
  if (params.database.empty()) {
    return WriteApiError(ApiDialect::kV2, 400, "bucket is required", response);
  }
  auto precision = ParsePrecision(request.query.GetOr("precision", ""), /*allow_v1_units=*/false);
  if (!precision.ok()) {
    return WriteApiError(ApiDialect::kV2, 400, precision.status().message(), response);
  }
  params.precision = *precision;
  ExecuteWrite(ctx, params, request, response);
}

}  // namespace gnomon::server::api
