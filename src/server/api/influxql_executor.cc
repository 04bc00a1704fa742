#include "src/server/api/influxql_executor.h"

#include <algorithm>

#include "re2/re2.h"

#include "src/query/influxql/influxql_compiler.h"
#include "src/query/influxql/influxql_compiler_internal.h"
#include "src/query/query_engine.h"
#include "src/server/api/database_name.h"
#include "src/server/api/influxql_into_writer.h"
#include "src/server/api/influxql_meta.h"
#include "src/server/api/influxql_retention.h"

namespace gnomon::server::api {
namespace {

using query::influxql::CompiledSelect;
using query::influxql::Statement;
using Kind = Statement::Kind;

query::influxql::CompileContext CompileContextFor(ApiContext& ctx, const std::string& db, int64_t now_ns) {
  query::influxql::CompileContext c;
  c.database = db;
  c.now_ns = now_ns;
  storage::Engine* engine = ctx.engine;
  c.schema = [engine](const std::string& d, const std::string& m) { return LookUpSchema(*engine, d, m); };
  c.measurements = [engine](const std::string& d) { return engine->ListTables(d); };
  return c;
}

// SELECT ... INTO: every compiled query's rows written to the target; the answer counts points
// as InfluxDB does: {"name":"result","columns":["time","written"],"values":[[0, N]]}.
Status RunSelectInto(ApiContext& ctx, const query::influxql::Source& into, const std::vector<CompiledSelect>& compiled,
                     const InfluxqlRequest& req, const std::string& db, InfluxAnswer* out) {
  const std::string target_db = into.database.empty() ? db : into.database;
  if (target_db.empty()) return Status::InvalidArgument("database name required");
  GNOMON_RETURN_IF_ERROR(req.caller->Check(auth::Access::kWrite, target_db));
  if (!ctx.engine->DatabaseExists(target_db)) return Status::NotFound("database not found: " + target_db);
  int64_t written = 0;
  for (const CompiledSelect& c : compiled) {
    query::QueryOptions options;
    options.database = c.database;
    options.now_ns = req.now_ns;
    options.access_check = req.caller->AccessCheck();
    IntoWriter sink(c, ctx.engine, target_db, into.measurement_backref ? c.measurement : into.measurement);
    Status s = ctx.query_engine->Execute(c.sql, options, &sink);
    written += sink.written();
    GNOMON_RETURN_IF_ERROR(s);
  }
  const std::string name = "result";
  const std::vector<std::string> columns = {"time", "written"};
  out->BeginSeries(&name, {}, {}, columns);
  out->BeginRow();
  out->Time(0);
  out->Int(written);
  out->EndRow();
  out->EndSeries();
  return Status::OK();
}

Status RunSelect(ApiContext& ctx, const Statement& st, const InfluxqlRequest& req, const std::string& db,
                 InfluxAnswer* out) {
  GNOMON_ASSIGN_OR_RETURN(auto compiled, query::influxql::CompileSelect(*st.select, CompileContextFor(ctx, db, req.now_ns)));
  if (st.select->into) return RunSelectInto(ctx, *st.select->into, compiled, req, db, out);
  Status status;
  for (const CompiledSelect& c : compiled) {
    query::QueryOptions options;
    options.database = c.database;
    options.now_ns = req.now_ns;
    options.access_check = req.caller->AccessCheck();
    SeriesWriter sink(c, out, req.flush);
    out->SetTimeZone(c.zone);
    status = ctx.query_engine->Execute(c.sql, options, &sink);
    if (!status.ok()) break;
  }
  out->SetTimeZone(nullptr);  // the next statement has its own tz()
  return status;
}

// EXPLAIN [ANALYZE]: the SQL each measurement's query compiled to, and the engine's plan of it.
Status RunExplain(ApiContext& ctx, const Statement& st, const InfluxqlRequest& req, const std::string& db,
                  InfluxAnswer* out) {
  GNOMON_ASSIGN_OR_RETURN(auto compiled, query::influxql::CompileSelect(*st.select, CompileContextFor(ctx, db, req.now_ns)));
  std::vector<std::string> lines;
  for (const CompiledSelect& c : compiled) {
    lines.push_back("SQL: " + c.sql);
    std::vector<std::vector<std::string>> plan;
    GNOMON_RETURN_IF_ERROR(CollectRows(ctx, req, c.database,
                                       std::string(st.explain_analyze ? "EXPLAIN ANALYZE " : "EXPLAIN ") + c.sql, &plan));
    for (auto& row : plan) {
      std::string line;
      for (size_t i = 0; i < row.size(); ++i) line += (i ? "  " : "") + row[i];
      lines.push_back(std::move(line));
    }
  }
  const std::vector<std::string> columns = {"QUERY PLAN"};
  out->BeginSeries(nullptr, {}, {}, columns);
  for (const auto& l : lines) {
    out->BeginRow();
    out->String(l);
    out->EndRow();
  }
  out->EndSeries();
  return Status::OK();
}

// DELETE FROM m WHERE ... and DROP SERIES FROM m WHERE ...: the SQL DELETE of each measurement.
Status RunDelete(ApiContext& ctx, const Statement& st, const InfluxqlRequest& req, const std::string& db) {
  if (db.empty()) return Status::InvalidArgument("database name required");
  if (!ctx.engine->DatabaseExists(db)) return Status::NotFound("database not found: " + db);
  GNOMON_ASSIGN_OR_RETURN(auto all, ctx.engine->ListTables(db));
  for (const auto& m : all) {
    bool wanted = st.sources.empty();
    for (const auto& src : st.sources) {
      if (!src.regex) {
        wanted = wanted || src.measurement == m;
      } else {
        RE2 re(*src.regex, RE2::Quiet);
        wanted = wanted || (re.ok() && RE2::PartialMatch(m, re));
      }
    }
    if (!wanted) continue;
    GNOMON_ASSIGN_OR_RETURN(auto schema, LookUpSchema(*ctx.engine, db, m));
    if (!schema) continue;
    query::influxql::Relation rel;
    rel.from_sql = query::influxql::Quote(db) + "." + query::influxql::Quote(m);
    rel.tags = schema->tags;
    rel.fields = schema->fields;
    std::string sql = "DELETE FROM " + rel.from_sql;
    if (st.condition != nullptr) {
      GNOMON_ASSIGN_OR_RETURN(std::string c, query::influxql::ConditionSql(*st.condition, rel, req.now_ns));
      sql += " WHERE " + c;
    }
    std::vector<std::vector<std::string>> ignored;
    GNOMON_RETURN_IF_ERROR(CollectRows(ctx, req, db, sql, &ignored));
  }
  return Status::OK();
}

}  // namespace

Status ExecuteInfluxql(ApiContext& ctx, const Statement& st, const InfluxqlRequest& req, InfluxAnswer* out) {
  storage::Engine& engine = *ctx.engine;
  const std::string db = st.database.empty() ? req.database : st.database;
  switch (st.kind) {
    case Kind::kSelect: return RunSelect(ctx, st, req, db, out);
    case Kind::kExplain: return RunExplain(ctx, st, req, db, out);
    case Kind::kShowDatabases: {
      std::vector<std::string> names = engine.ListDatabases();
      std::erase_if(names, [&](const std::string& n) { return !req.caller->Check(auth::Access::kRead, n).ok(); });
      std::sort(names.begin(), names.end());
      // Always one series, even when empty: clients such as TSBS index series[0] unconditionally.
      std::vector<std::vector<std::string>> rows;
      for (auto& n : names) rows.push_back({std::move(n)});
      const std::string name = "databases";
      NamedSeries(out, &name, {"name"}, rows);
      return Status::OK();
    }
    case Kind::kShowMeasurements:
    case Kind::kShowMeasurementCardinality:
    case Kind::kShowTagKeys:
    case Kind::kShowTagValues:
    case Kind::kShowFieldKeys:
    case Kind::kShowSeries:
    case Kind::kShowSeriesCardinality:
    case Kind::kShowRetentionPolicies: return ExecuteShow(ctx, st, req, db, out);
    case Kind::kCreateDatabase: {
      GNOMON_RETURN_IF_ERROR(ValidateDatabaseName(st.database));
      GNOMON_RETURN_IF_ERROR(CheckNewDatabasePolicy(st));
      storage::DatabaseOptions options;
      options.retention_ns = std::max<int64_t>(st.duration_ns, 0);
      Status s = engine.CreateDatabase(st.database, options);
      if (!s.ok() && s.code() != Status::Code::kAlreadyExists) return s;
      return Status::OK();  // creating an existing database succeeds, as in InfluxDB
    }
    case Kind::kDropDatabase: {
      Status s = engine.DropDatabase(st.database);
      if (!s.ok() && !s.IsNotFound()) return s;
      return Status::OK();  // dropping a missing database succeeds, as in InfluxDB
    }
    case Kind::kDropMeasurement: {
      if (db.empty()) return Status::InvalidArgument("database name required");
      Status s = engine.DropTable(db, st.name);
      if (s.IsNotFound()) return Status::OK();
      return s;
    }
    case Kind::kDelete:
    case Kind::kDropSeries: return RunDelete(ctx, st, req, db);
    case Kind::kCreateRetentionPolicy:
    case Kind::kAlterRetentionPolicy:
    case Kind::kDropRetentionPolicy: return ChangeRetentionPolicy(ctx, st);
  }
  return Status::Internal("unknown statement");
}

Status AuthorizeInfluxql(const Statement& st, std::string_view database, const Caller& caller) {
  std::string_view db = st.database.empty() ? database : std::string_view(st.database);
  switch (st.kind) {
    case Kind::kShowDatabases: return caller.Check(auth::Access::kRead, "");
    case Kind::kCreateDatabase:
    case Kind::kDropDatabase:
    case Kind::kDropMeasurement:
    case Kind::kDelete:
    case Kind::kDropSeries:
    case Kind::kCreateRetentionPolicy:
    case Kind::kAlterRetentionPolicy:
    case Kind::kDropRetentionPolicy: return caller.Check(auth::Access::kWrite, db);
    default: return caller.Check(auth::Access::kRead, db);
  }
}

}  // namespace gnomon::server::api
