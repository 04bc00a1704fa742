#include "src/server/api/auth_guard.h"

#include "src/server/auth/credentials.h"

namespace gnomon::server::api {
namespace {

void WriteUnauthorized(ApiDialect dialect, std::string_view why, http::Response* response) {
  WriteApiError(dialect, 401, "authentication required: " + std::string(why), response);
  response->AddHeader("WWW-Authenticate", "Bearer realm=\"gnomon\", Basic realm=\"gnomon\"");
}

}  // namespace

std::optional<Caller> Authenticate(const ApiContext& ctx, const http::Request& request,
                                   ApiDialect dialect, http::Response* response) {
  if (!ctx.auth_required) return Caller::Unrestricted();
  auto token = auth::ExtractToken(request.HeaderValue("Authorization"), request.query.Get("p"));
  if (!token.ok()) {
    WriteUnauthorized(dialect, token.status().message(), response);
    return std::nullopt;
  }
  if (!token->has_value()) {
    WriteUnauthorized(dialect,
                      "send a token as 'Authorization: Token <token>' (or Bearer, or Basic with "
                      "the token as password, or the p query parameter)",
                      response);
    return std::nullopt;
  }
  auto record = ctx.tokens == nullptr ? Result<auth::TokenRecord>(Status::NotFound("no tokens"))
                                      : ctx.tokens->Authenticate(**token);
  if (!record.ok()) {
    WriteUnauthorized(dialect, "invalid token", response);
    return std::nullopt;
  }
  return Caller::WithToken(std::move(*record));
}

void WriteForbidden(ApiDialect dialect, const Status& denied, http::Response* response) {
  WriteApiError(dialect, 403, "permission denied: " + denied.message(), response);
}

http::Handler Guard(const ApiContext* ctx, ApiDialect dialect, RouteAccess rule,
                    CallerHandler inner) {
  return [ctx, dialect, rule = std::move(rule), inner = std::move(inner)](
             const http::Request& request, http::Response* response) {
    std::optional<Caller> caller = Authenticate(*ctx, request, dialect, response);
    if (!caller) return;
    std::string_view database;
    if (!rule.database_param.empty()) database = request.query.GetOr(rule.database_param, "");
    if (Status s = caller->Check(rule.access, database); !s.ok()) {
      return WriteForbidden(dialect, s, response);
    }
    inner(request, *caller, response);
  };
}

}  // namespace gnomon::server::api
