// /v1/sql: the hook for the SQL engine. The query layer sets ApiContext::sql_handler; until then
// the endpoint exists and says plainly that SQL is not available.
#include "src/server/api/handlers.h"
#include "src/server/api/error_writer.h"

namespace gnomon::server::api {

void HandleSql(ApiContext& ctx, const http::Request& request, const Caller& caller,
               http::Response* response) {
  if (ctx.sql_handler) return ctx.sql_handler(request, caller.AccessCheck(), response);
  WriteApiError(ApiDialect::kV1, 501, "SQL queries are not available in this build", response);
}

}  // namespace gnomon::server::api
