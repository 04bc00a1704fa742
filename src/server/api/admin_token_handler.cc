// /v1/admin/tokens: token management on a running server (admin tokens only; api_routes.cc). The
// store writes the token file before it answers, so a token created here works at once, and a
// revoked one stops working with the next request.
#include "src/base/split.h"
#include "src/server/api/error_writer.h"
#include "src/server/api/handlers.h"
#include "src/server/http/json_writer.h"

namespace gnomon::server::api {
namespace {

void WriteToken(const auth::TokenRecord& t, http::JsonWriter* json) {
  json->BeginObject();
  json->Key("name").String(t.name);
  json->Key("access").String(auth::AccessName(t.access));
  json->Key("databases").BeginArray();
  for (const auto& db : t.databases) json->String(db);
  json->EndArray();
  json->Key("all_databases").Bool(t.all_databases());
  json->Key("created_ns").Int(t.created_ns);
  json->EndObject();
}

bool HaveStore(const ApiContext& ctx, http::Response* response) {
  if (ctx.tokens != nullptr) return true;
  WriteApiError(ApiDialect::kV1, 503, "this server has no token store", response);
  return false;
}

// Every db= parameter; each may also be a comma-separated list.
std::vector<std::string> Databases(const http::Request& request) {
  std::vector<std::string> out;
  for (const auto& [key, value] : request.query.items()) {
    if (key != "db") continue;
    for (std::string_view db : SplitOn(value, ',')) {
      if (!db.empty()) out.emplace_back(db);
    }
  }
  return out;
}

}  // namespace

void HandleTokenList(ApiContext& ctx, const http::Request&, http::Response* response) {
  if (!HaveStore(ctx, response)) return;
  http::JsonWriter json;
  json.BeginObject().Key("tokens").BeginArray();
  for (const auto& t : ctx.tokens->List()) WriteToken(t, &json);
  json.EndArray().EndObject();
  response->SetJson(200, json.Release());
}

void HandleTokenCreate(ApiContext& ctx, const http::Request& request, http::Response* response) {
  if (!HaveStore(ctx, response)) return;
  auto access = auth::ParseAccess(request.query.GetOr("access", ""));
  if (!access.ok()) return WriteApiError(ApiDialect::kV1, 400, access.status().message(), response);
  auto created = ctx.tokens->Create(std::string(request.query.GetOr("name", "")), *access,
                                    Databases(request));
  if (!created.ok()) {
    int status = created.status().code() == Status::Code::kAlreadyExists ? 409
                                                                          : HttpStatusFor(created.status());
    return WriteApiError(ApiDialect::kV1, status, created.status().message(), response);
  }
  http::JsonWriter json;
  json.BeginObject().Key("token").String(created->secret).Key("info");
  WriteToken(created->record, &json);
  json.EndObject();
  response->SetJson(201, json.Release());
}

void HandleTokenRevoke(ApiContext& ctx, const http::Request& request, http::Response* response) {
  if (!HaveStore(ctx, response)) return;
  std::string name(request.query.GetOr("name", ""));
  if (Status s = ctx.tokens->Revoke(name); !s.ok()) {
    return WriteApiError(ApiDialect::kV1, HttpStatusFor(s), s.message(), response);
  }
  http::JsonWriter json;
  json.BeginObject().Key("status").String("ok").Key("revoked").String(name).EndObject();
  response->SetJson(200, json.Release());
}

}  // namespace gnomon::server::api
