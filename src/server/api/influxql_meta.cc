#include "src/server/api/influxql_meta.h"

#include <algorithm>
#include <map>

#include "re2/re2.h"
#include "src/query/influxql/influxql_compiler_internal.h"
#include "src/query/query_engine.h"
#include "src/server/api/influxql_retention.h"

namespace gnomon::server::api {
namespace {

using query::influxql::Expr;
using query::influxql::MeasurementSchema;
using query::influxql::Quote;
using query::influxql::Relation;
using query::influxql::Statement;

// Rows of a result as text; what meta queries need (tag values and counts).
class TextRows final : public query::ResultSink {
 public:
  explicit TextRows(std::vector<std::vector<std::string>>* rows) : rows_(rows) {}
  Status Begin(const std::vector<query::ResultColumn>&) override { return Status::OK(); }
  Status Chunk(const query::ResultChunk& chunk) override {
    for (size_t r = 0; r < chunk.rows; ++r) {
      std::vector<std::string> row;
      for (const auto& v : chunk.columns) {
        if (v.type == ValueType::kNull || v.IsNull(r)) row.emplace_back();
        else if (v.type == ValueType::kString) row.push_back(v.str[r]);
        else if (v.type == ValueType::kInt64 || v.type == ValueType::kTimestamp) row.push_back(std::to_string(v.i64[r]));
        else if (v.type == ValueType::kUInt64) row.push_back(std::to_string(v.u64[r]));
        else if (v.type == ValueType::kFloat64) row.push_back(std::to_string(v.f64[r]));
        else row.push_back(v.b[r] ? "true" : "false");
      }
      rows_->push_back(std::move(row));
    }
    return Status::OK();
  }
  Status End(const query::QueryStats&) override { return Status::OK(); }

 private:
  std::vector<std::vector<std::string>>* rows_;
};

bool Matches(const std::string& pattern, const std::string& s) {
  RE2 re(pattern, RE2::Quiet);
  return re.ok() && RE2::PartialMatch(s, re);
}

// A series of one integer: the cardinality answers.
void CountSeries(InfluxAnswer* out, const std::string* name, int64_t count) {
  const std::vector<std::string> columns = {"count"};
  out->BeginSeries(name, {}, {}, columns);
  out->BeginRow();
  out->Int(count);
  out->EndRow();
  out->EndSeries();
}

void Page(std::vector<std::vector<std::string>>* rows, int64_t limit, int64_t offset) {
  if (offset > 0) rows->erase(rows->begin(), rows->begin() + std::min<size_t>(offset, rows->size()));
  if (limit > 0 && rows->size() > static_cast<size_t>(limit)) rows->resize(limit);
}

Relation RelationOf(const std::string& db, const std::string& m, const MeasurementSchema& s) {
  Relation rel;
  rel.from_sql = Quote(db) + "." + Quote(m);
  rel.tags = s.tags;
  rel.fields = s.fields;
  return rel;
}

// The measurements a SHOW reads: FROM names and regexes, else every one (sorted).
Result<std::vector<std::string>> Measurements(ApiContext& ctx, const Statement& st, const std::string& db) {
  GNOMON_ASSIGN_OR_RETURN(auto all, ctx.engine->ListTables(db));
  std::sort(all.begin(), all.end());
  if (st.sources.empty()) return all;
  std::vector<std::string> out;
  for (const auto& m : all) {
    for (const auto& src : st.sources) {
      if (src.regex ? Matches(*src.regex, m) : src.measurement == m) {
        out.push_back(m);
        break;
      }
    }
  }
  return out;
}

Result<std::string> WhereSql(const Statement& st, const Relation& rel, const InfluxqlRequest& req) {
  if (st.condition == nullptr) return std::string();
  GNOMON_ASSIGN_OR_RETURN(std::string c, query::influxql::ConditionSql(*st.condition, rel, req.now_ns));
  return " WHERE " + c;
}

const char* FieldTypeName(ValueType t) {
  switch (t) {
    case ValueType::kInt64: return "integer";
    case ValueType::kUInt64: return "unsigned";
    case ValueType::kBool: return "boolean";
    case ValueType::kString: return "string";
    default: return "float";
  }
}

}  // namespace

void NamedSeries(InfluxAnswer* out, const std::string* name, const std::vector<std::string>& columns,
                 const std::vector<std::vector<std::string>>& values) {
  out->BeginSeries(name, {}, {}, columns);
  for (const auto& row : values) {
    out->BeginRow();
    for (const auto& v : row) out->String(v);
    out->EndRow();
  }
  out->EndSeries();
}

Result<std::optional<MeasurementSchema>> LookUpSchema(storage::Engine& engine, const std::string& db,
                                                      const std::string& measurement) {
  if (!engine.DatabaseExists(db)) return Status::NotFound("database not found: " + db);
  auto info = engine.DescribeTable(db, measurement);
  if (!info.ok()) {
    if (info.status().IsNotFound()) return std::optional<MeasurementSchema>();
    return info.status();
  }
  MeasurementSchema s;
  for (const auto& c : info->columns) {
    if (c.kind == storage::ColumnInfo::Kind::kTag) s.tags.push_back(c.name);
    else if (c.kind == storage::ColumnInfo::Kind::kField) s.fields.emplace_back(c.name, c.type);
  }
  std::sort(s.tags.begin(), s.tags.end());
  return std::optional<MeasurementSchema>(std::move(s));
}

Status CollectRows(ApiContext& ctx, const InfluxqlRequest& req, const std::string& database, const std::string& sql,
                   std::vector<std::vector<std::string>>* rows) {
  if (ctx.query_engine == nullptr) return Status::Unsupported("no query engine");
  query::QueryOptions options;
  options.database = database;
  options.now_ns = req.now_ns;
  if (req.caller != nullptr) options.access_check = req.caller->AccessCheck();
  TextRows sink(rows);
  return ctx.query_engine->Execute(sql, options, &sink);
}

Status ExecuteShow(ApiContext& ctx, const Statement& st, const InfluxqlRequest& req, const std::string& db,
                   InfluxAnswer* out) {
  using K = Statement::Kind;
  if (db.empty()) return Status::InvalidArgument("database name required");
  if (!ctx.engine->DatabaseExists(db)) return Status::NotFound("database not found: " + db);
  if (st.kind == K::kShowRetentionPolicies) return ShowRetentionPolicies(ctx, db, out);
  GNOMON_ASSIGN_OR_RETURN(auto measurements, Measurements(ctx, st, db));
  std::vector<std::vector<std::string>> all_keys;  // SHOW SERIES
  if (st.kind == K::kShowMeasurements) {
    std::vector<std::vector<std::string>> rows;
    for (const auto& m : measurements) {
      if (st.with_op == "=~" && !Matches(st.with_values[0], m)) continue;
      if (st.with_op == "=" && st.with_values[0] != m) continue;
      if (st.condition != nullptr) {
        GNOMON_ASSIGN_OR_RETURN(auto schema, LookUpSchema(*ctx.engine, db, m));
        if (!schema) continue;
        Relation rel = RelationOf(db, m, *schema);
        GNOMON_ASSIGN_OR_RETURN(std::string where, WhereSql(st, rel, req));
        std::vector<std::vector<std::string>> hit;
        GNOMON_RETURN_IF_ERROR(CollectRows(ctx, req, db, "SELECT 1 FROM " + rel.from_sql + where + " LIMIT 1", &hit));
        if (hit.empty()) continue;
      }
      rows.push_back({m});
    }
    Page(&rows, st.limit, st.offset);
    if (!rows.empty()) {
      std::string name = "measurements";
      NamedSeries(out, &name, {"name"}, rows);
    }
  } else if (st.kind == K::kShowMeasurementCardinality) {
    CountSeries(out, nullptr, static_cast<int64_t>(measurements.size()));
  }
  for (const auto& m : measurements) {
    if (st.kind != K::kShowTagKeys && st.kind != K::kShowTagValues && st.kind != K::kShowFieldKeys &&
        st.kind != K::kShowSeries && st.kind != K::kShowSeriesCardinality) {
      break;
    }
    GNOMON_ASSIGN_OR_RETURN(auto schema, LookUpSchema(*ctx.engine, db, m));
    if (!schema) continue;
    Relation rel = RelationOf(db, m, *schema);
    GNOMON_ASSIGN_OR_RETURN(std::string where, WhereSql(st, rel, req));
    std::vector<std::vector<std::string>> rows;
    std::vector<std::string> columns;
    const std::string* name = &m;
    if (st.kind == K::kShowFieldKeys) {
      columns = {"fieldKey", "fieldType"};
      for (const auto& [f, t] : schema->fields) rows.push_back({f, FieldTypeName(t)});
      std::sort(rows.begin(), rows.end());
    } else if (st.kind == K::kShowTagKeys) {
      columns = {"tagKey"};
      if (st.condition == nullptr) {
        for (const auto& t : schema->tags) rows.push_back({t});
      } else if (!schema->tags.empty()) {  // the keys that points matching WHERE carry
        std::string sql = "SELECT ";
        for (size_t i = 0; i < schema->tags.size(); ++i) sql += (i ? ", count(" : "count(") + Quote(schema->tags[i]) + ")";
        std::vector<std::vector<std::string>> counts;
        GNOMON_RETURN_IF_ERROR(CollectRows(ctx, req, db, sql + " FROM " + rel.from_sql + where, &counts));
        for (size_t i = 0; i < schema->tags.size(); ++i) {
          if (!counts.empty() && counts[0][i] != "0") rows.push_back({schema->tags[i]});
        }
      }
    } else if (st.kind == K::kShowTagValues) {
      columns = {"key", "value"};
      for (const auto& key : schema->tags) {
        bool wanted = false;
        if (st.with_op == "IN") wanted = std::find(st.with_values.begin(), st.with_values.end(), key) != st.with_values.end();
        else if (st.with_op == "=") wanted = key == st.with_values[0];
        else if (st.with_op == "!=") wanted = key != st.with_values[0];
        else if (st.with_op == "=~") wanted = Matches(st.with_values[0], key);
        else if (st.with_op == "!~") wanted = !Matches(st.with_values[0], key);
        if (!wanted) continue;
        std::string cond = Quote(key) + " IS NOT NULL";
        std::string sql = "SELECT DISTINCT " + Quote(key) + " FROM " + rel.from_sql +
                          (where.empty() ? " WHERE " + cond : where + " AND " + cond) + " ORDER BY 1";
        std::vector<std::vector<std::string>> values;
        GNOMON_RETURN_IF_ERROR(CollectRows(ctx, req, db, sql, &values));
        for (auto& v : values) rows.push_back({key, std::move(v[0])});
      }
    } else {  // SHOW SERIES [CARDINALITY]
      columns = {"key"};
      name = nullptr;
      std::vector<std::vector<std::string>> tagsets;
      if (schema->tags.empty()) {
        GNOMON_RETURN_IF_ERROR(CollectRows(ctx, req, db, "SELECT 1 FROM " + rel.from_sql + where + " LIMIT 1", &tagsets));
      } else {
        std::string list;
        for (size_t i = 0; i < schema->tags.size(); ++i) list += (i ? ", " : "") + Quote(schema->tags[i]);
        GNOMON_RETURN_IF_ERROR(CollectRows(ctx, req, db, "SELECT DISTINCT " + list + " FROM " + rel.from_sql + where, &tagsets));
      }
      for (const auto& ts : tagsets) {
        std::string key;
        AppendSeriesKeyPart(&key, m);
        for (size_t i = 0; i < schema->tags.size(); ++i) {
          if (ts[i].empty()) continue;
          key += ',';
          AppendSeriesKeyPart(&key, schema->tags[i]);
          key += '=';
          AppendSeriesKeyPart(&key, ts[i]);
        }
        rows.push_back({std::move(key)});
      }
      if (st.kind == K::kShowSeries) {  // one series of keys for all measurements
        for (auto& r : rows) all_keys.push_back(std::move(r));
        continue;
      }
      std::sort(rows.begin(), rows.end());
      if (st.kind == K::kShowSeriesCardinality) {
        CountSeries(out, &m, static_cast<int64_t>(rows.size()));
        continue;
      }
    }
    Page(&rows, st.limit, st.offset);
    if (rows.empty()) continue;
    NamedSeries(out, name, columns, rows);
  }
  if (st.kind == K::kShowSeries) {
    std::sort(all_keys.begin(), all_keys.end());
    Page(&all_keys, st.limit, st.offset);
    if (!all_keys.empty()) NamedSeries(out, nullptr, {"key"}, all_keys);
  }
  return Status::OK();
}

}  // namespace gnomon::server::api
