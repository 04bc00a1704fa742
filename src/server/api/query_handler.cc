// GET|POST /query (InfluxDB 1.x). `q` (and `db`) come from the URL or, for POST, from an
// application/x-www-form-urlencoded body. A malformed query is 400 {"error":"error parsing
// query: ..."} and runs nothing; otherwise 200 with one result per statement, each carrying its
// own "error" when it failed, as InfluxDB does.
#include <algorithm>

#include "src/server/api/database_name.h"
#include "src/server/api/error_writer.h"
#include "src/server/api/handlers.h"
#include "src/server/api/influxql_statement.h"
#include "src/server/http/json_writer.h"

namespace gnomon::server::api {
namespace {

using http::JsonWriter;
using Kind = InfluxqlStatement::Kind;

void NameSeries(JsonWriter* json, std::string_view name, const std::vector<std::string>& values) {
  json->Key("series").BeginArray().BeginObject();
  json->Key("name").String(name);
  json->Key("columns").BeginArray().String("name").EndArray();
  if (!values.empty()) {
    json->Key("values").BeginArray();
    for (const auto& v : values) json->BeginArray().String(v).EndArray();
    json->EndArray();
  }
  json->EndObject().EndArray();
}

// Runs one statement, writing the body of its result object (after "statement_id").
void Execute(ApiContext& ctx, const InfluxqlStatement& stmt, std::string_view default_db,
             const Caller& caller, JsonWriter* json) {
  auto error = [&](std::string_view message) { json->Key("error").String(message); };
  storage::Engine& engine = *ctx.engine;
  switch (stmt.kind) {
    case Kind::kShowDatabases: {
      std::vector<std::string> names = engine.ListDatabases();
      // A token limited to some databases sees only those.
      std::erase_if(names, [&](const std::string& n) {
        return !caller.Check(auth::Access::kRead, n).ok();
      });
      std::sort(names.begin(), names.end());
      // Always one series, even when empty: clients such as TSBS index series[0] unconditionally.
      NameSeries(json, "databases", names);
      return;
    }
    case Kind::kCreateDatabase: {
      if (Status s = ValidateDatabaseName(stmt.database); !s.ok()) return error(s.message());
      storage::DatabaseOptions options;
      options.retention_ns = stmt.retention_ns;
      Status s = engine.CreateDatabase(stmt.database, options);
      if (!s.ok() && s.code() != Status::Code::kAlreadyExists) error(s.message());
      return;  // creating an existing database succeeds, as in InfluxDB
    }
    case Kind::kDropDatabase: {
      Status s = engine.DropDatabase(stmt.database);
      if (!s.ok() && !s.IsNotFound()) error(s.message());
      return;  // dropping a missing database succeeds, as in InfluxDB
    }
    case Kind::kShowMeasurements: {
      std::string db = stmt.database.empty() ? std::string(default_db) : stmt.database;
      if (db.empty()) return error("database name required");
      if (!engine.DatabaseExists(db)) return error("database not found: " + db);
      auto tables = engine.ListTables(db);
      if (!tables.ok()) return error(tables.status().message());
      std::sort(tables->begin(), tables->end());
      if (!tables->empty()) NameSeries(json, "measurements", *tables);
      return;
    }
    case Kind::kUnsupported: {
      std::string db = stmt.database.empty() ? std::string(default_db) : stmt.database;
      if (!db.empty() && !engine.DatabaseExists(db)) return error("database not found: " + db);
      return error("InfluxQL statement not supported yet: " + stmt.text);
    }
  }
}

// What `stmt` needs of the caller's token: changes need write access to their database, the
// rest read access (SHOW DATABASES: to any database; it lists only the readable ones).
Status Authorize(const InfluxqlStatement& stmt, std::string_view default_db, const Caller& caller) {
  std::string_view db = stmt.database.empty() ? default_db : std::string_view(stmt.database);
  switch (stmt.kind) {
    case Kind::kShowDatabases: return caller.Check(auth::Access::kRead, "");
    case Kind::kCreateDatabase:
    case Kind::kDropDatabase: return caller.Check(auth::Access::kWrite, stmt.database);
    case Kind::kShowMeasurements:
    case Kind::kUnsupported: return caller.Check(auth::Access::kRead, db);
  }
  return caller.Check(auth::Access::kAdmin, "");
}

}  // namespace

void HandleQuery(ApiContext& ctx, const http::Request& request, const Caller& caller,
                 http::Response* response) {
  std::string_view q = request.query.GetOr("q", "");
  std::string_view db = request.query.GetOr("db", "");
  http::QueryParams form;
  std::string_view content_type = request.HeaderValue("Content-Type");
  if (request.method == http::Method::kPost &&
      content_type.substr(0, 33) == "application/x-www-form-urlencoded") {
    form = http::QueryParams::Parse(request.body);
    if (q.empty()) q = form.GetOr("q", "");
    if (db.empty()) db = form.GetOr("db", "");
  }
  if (q.empty()) return WriteApiError(ApiDialect::kV1, 400, "missing required parameter \"q\"", response);
  auto statements = ParseInfluxql(q);
  if (!statements.ok()) {
    return WriteApiError(ApiDialect::kV1, 400,
                         "error parsing query: " + statements.status().message(), response);
  }
  // All statements are authorized before any runs, as InfluxDB 1.x does ("error authorizing query").
  for (const auto& stmt : *statements) {
    if (Status s = Authorize(stmt, db, caller); !s.ok()) {
      return WriteApiError(ApiDialect::kV1, 403, "error authorizing query: " + s.message(), response);
    }
  }
  JsonWriter json;
  json.BeginObject().Key("results").BeginArray();
  for (size_t i = 0; i < statements->size(); ++i) {
    json.BeginObject().Key("statement_id").UInt(i);
    Execute(ctx, (*statements)[i], db, caller, &json);
    json.EndObject();
  }
  json.EndArray().EndObject();
  response->SetJson(200, json.Release());
}

}  // namespace gnomon::server::api
