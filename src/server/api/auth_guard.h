// The authentication step in front of every endpoint but /ping and /health (api_routes.cc):
// finds the request's token (auth/credentials.h), looks it up, and checks the route's coarse
// requirement; handlers that touch several databases (/query, /v1/sql) check the rest with the
// Caller they are given.
//
// Answers: 401 with WWW-Authenticate when the token is missing, malformed or unknown (the same
// answer for all three, and before any database is looked at, so nothing is revealed); 403 when
// the token may not do this.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "src/server/api/api_context.h"
#include "src/server/api/caller.h"
#include "src/server/api/error_writer.h"

namespace gnomon::server::api {

// What a route needs before its handler runs. `database_param` names the query parameter that
// holds the database ("db", "bucket"); empty for server-wide routes.
struct RouteAccess {
  auth::Access access = auth::Access::kRead;
  std::string database_param;
};

using CallerHandler = std::function<void(const http::Request&, const Caller&, http::Response*)>;

// The Caller of `request`, or nullopt after writing a 401 into `response`.
std::optional<Caller> Authenticate(const ApiContext& ctx, const http::Request& request,
                                   ApiDialect dialect, http::Response* response);

// Writes the 403 for a PermissionDenied status.
void WriteForbidden(ApiDialect dialect, const Status& denied, http::Response* response);

// `inner` behind authentication and `rule`.
http::Handler Guard(const ApiContext* ctx, ApiDialect dialect, RouteAccess rule,
                    CallerHandler inner);

}  // namespace gnomon::server::api
