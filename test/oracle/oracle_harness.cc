#include "test/oracle/oracle_harness.h"

#include <stdlib.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <set>

#include "src/bench/data_generator.h"
#include "src/query/execution/value.h"
#include "src/server/ingest/line_protocol.h"

namespace gnomon::oracle {
namespace {

// Collects the data set's line protocol in memory.
class StringFile final : public port::WritableFile {
 public:
  Status Append(std::string_view data) override {
    data_.append(data);
    return Status::OK();
  }
  Status Flush() override { return Status::OK(); }
  Status Sync() override { return Status::OK(); }
  Status Close() override { return Status::OK(); }
  uint64_t Size() const override { return data_.size(); }
  std::string& data() { return data_; }

 private:
  std::string data_;
};

class RowSink : public query::ResultSink {
 public:
  Status Begin(const std::vector<query::ResultColumn>&) override { return Status::OK(); }
  Status Chunk(const query::ResultChunk& chunk) override {
    for (size_t r = 0; r < chunk.rows; ++r) {
      Row row;
      for (const auto& col : chunk.columns) {
        query::Value v = query::GetValue(col, r);
        Cell c;
        switch (v.type) {
          case ValueType::kNull: break;
          case ValueType::kInt64:
          case ValueType::kTimestamp: c.kind = Cell::Kind::kInt; c.i = v.i; break;
          case ValueType::kUInt64: c.kind = Cell::Kind::kInt; c.i = static_cast<int64_t>(v.u); break;
          case ValueType::kBool: c.kind = Cell::Kind::kInt; c.i = v.b ? 1 : 0; break;
          case ValueType::kFloat64: c.kind = Cell::Kind::kReal; c.d = v.f; break;
          case ValueType::kString: c.kind = Cell::Kind::kText; c.s = v.s; break;
        }
        row.push_back(std::move(c));
      }
      rows.push_back(std::move(row));
    }
    return Status::OK();
  }
  Status End(const query::QueryStats&) override { return Status::OK(); }
  std::vector<Row> rows;
};

// Total order used to sort unordered results: text/ints exactly, reals rounded to 9 significant
// digits so that two engines' last-bit differences do not reorder rows.
bool RowLess(const Row& a, const Row& b) {
  for (size_t i = 0; i < std::min(a.size(), b.size()); ++i) {
    const Cell& x = a[i];
    const Cell& y = b[i];
    if (x.kind != y.kind) return x.kind < y.kind;
    switch (x.kind) {
      case Cell::Kind::kNull: continue;
      case Cell::Kind::kInt:
        if (x.i != y.i) return x.i < y.i;
        continue;
      case Cell::Kind::kText:
        if (x.s != y.s) return x.s < y.s;
        continue;
      case Cell::Kind::kReal: {
        char bx[32], by[32];
        std::snprintf(bx, sizeof(bx), "%.9g", x.d);
        std::snprintf(by, sizeof(by), "%.9g", y.d);
        double rx = std::strtod(bx, nullptr), ry = std::strtod(by, nullptr);
        if (rx != ry) return rx < ry;
        continue;
      }
    }
  }
  return a.size() < b.size();
}

std::string RenderRow(const Row& r) {
  std::string s;
  for (size_t i = 0; i < r.size(); ++i) {
    if (i > 0) s += " | ";
    s += r[i].ToString();
  }
  return s;
}

}  // namespace

std::string Cell::ToString() const {
  switch (kind) {
    case Kind::kNull: return "NULL";
    case Kind::kInt: return std::to_string(i);
    case Kind::kText: return "'" + s + "'";
    case Kind::kReal: {
      char buf[40];
      std::snprintf(buf, sizeof(buf), "%.17g", d);
      return buf;
    }
  }
  return "?";
}

bool CellsMatch(const Cell& a, const Cell& b) {
  if (a.kind == Cell::Kind::kNull || b.kind == Cell::Kind::kNull) return a.kind == b.kind;
  if (a.kind == Cell::Kind::kText || b.kind == Cell::Kind::kText) return a.kind == b.kind && a.s == b.s;
  if (a.kind == Cell::Kind::kInt && b.kind == Cell::Kind::kInt) return a.i == b.i;
  double x = a.kind == Cell::Kind::kInt ? static_cast<double>(a.i) : a.d;
  double y = b.kind == Cell::Kind::kInt ? static_cast<double>(b.i) : b.d;
  if (std::isnan(x) || std::isnan(y)) return std::isnan(x) && std::isnan(y);
  return std::fabs(x - y) <= 1e-9 * std::max({std::fabs(x), std::fabs(y), 1e-3});
}

std::string CompareResults(const std::vector<Row>& gnomon, const std::vector<Row>& sqlite, bool ordered) {
  std::vector<Row> g = gnomon, s = sqlite;
  if (!ordered) {
    std::sort(g.begin(), g.end(), RowLess);
    std::sort(s.begin(), s.end(), RowLess);
  }
  for (size_t r = 0; r < std::max(g.size(), s.size()); ++r) {
    bool same = r < g.size() && r < s.size() && g[r].size() == s[r].size();
    for (size_t c = 0; same && c < g[r].size(); ++c) same = CellsMatch(g[r][c], s[r][c]);
    if (!same) {
      return "rows: gnomon " + std::to_string(g.size()) + ", sqlite " + std::to_string(s.size()) +
             "; first difference at row " + std::to_string(r) + (ordered ? "" : " (after sorting)") +
             "\n  gnomon: " + (r < g.size() ? RenderRow(g[r]) : "(none)") +
             "\n  sqlite: " + (r < s.size() ? RenderRow(s[r]) : "(none)");
    }
  }
  return "";
}

SqliteDb::SqliteDb() { GNOMON_CHECK(sqlite3_open(":memory:", &db_) == SQLITE_OK); }
SqliteDb::~SqliteDb() { sqlite3_close(db_); }

Status SqliteDb::Exec(const std::string& sql) {
  char* err = nullptr;
  if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &err) != SQLITE_OK) {
    std::string msg = err ? err : "?";
    sqlite3_free(err);
    return Status::InvalidArgument("sqlite: " + msg + " in: " + sql);
  }
  return Status::OK();
}

Result<std::vector<Row>> SqliteDb::Query(const std::string& sql) {
  sqlite3_stmt* stmt = nullptr;
  if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &stmt, nullptr) != SQLITE_OK) {
    return Status::InvalidArgument(std::string("sqlite: ") + sqlite3_errmsg(db_) + " in: " + sql);
  }
  std::vector<Row> rows;
  int rc;
  while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
    Row row;
    for (int c = 0; c < sqlite3_column_count(stmt); ++c) {
      Cell cell;
      switch (sqlite3_column_type(stmt, c)) {
        case SQLITE_INTEGER: cell.kind = Cell::Kind::kInt; cell.i = sqlite3_column_int64(stmt, c); break;
        case SQLITE_FLOAT: cell.kind = Cell::Kind::kReal; cell.d = sqlite3_column_double(stmt, c); break;
        case SQLITE_TEXT:
          cell.kind = Cell::Kind::kText;
          cell.s = reinterpret_cast<const char*>(sqlite3_column_text(stmt, c));
          break;
        default: break;
      }
      row.push_back(std::move(cell));
    }
    rows.push_back(std::move(row));
  }
  std::string err = rc == SQLITE_DONE ? "" : sqlite3_errmsg(db_);
  sqlite3_finalize(stmt);
  if (!err.empty()) return Status::Internal("sqlite: " + err + " in: " + sql);
  return rows;
}

Result<std::unique_ptr<OracleData>> OracleData::Create(const DataSetConfig& config) {
  std::unique_ptr<OracleData> d(new OracleData());
  d->config_ = config;
  char tmpl[] = "/tmp/gnomon_oracle_XXXXXX";
  if (::mkdtemp(tmpl) == nullptr) return Status::IOError("mkdtemp failed");
  d->dir_ = tmpl;
  GNOMON_RETURN_IF_ERROR(d->Load());
  return d;
}

OracleData::~OracleData() {
  query_.reset();
  engine_.reset();
  if (!dir_.empty()) std::filesystem::remove_all(dir_);
}

const std::vector<std::string>& OracleData::TagValues(const std::string& key) const {
  for (size_t i = 0; i < tag_keys_.size(); ++i) {
    if (tag_keys_[i] == key) return tag_values_[i];
  }
  GNOMON_CHECK_MSG(false, ("unknown tag key " + key).c_str());
  return tag_values_[0];
}

Status OracleData::Load() {
  bench::DataGenConfig gen;
  gen.use_case = config_.use_case;
  gen.scale = config_.scale;
  gen.seed = config_.seed;
  gen.start_ns = config_.start_ns;
  gen.end_ns = config_.end_ns;
  StringFile lp;
  GNOMON_RETURN_IF_ERROR(bench::GenerateData(gen, &lp).status());

  storage::EngineOptions options;
  options.data_dir = dir_;
  options.background_work = false;
  options.wal_sync = storage::WalSyncMode::kNone;
  options.partition_duration_ns = 4 * 3600 * 1000000000LL;  // several partitions in 13 h
  GNOMON_ASSIGN_OR_RETURN(engine_, storage::Engine::Open(options));
  query::QueryEngineOptions qopts;
  qopts.worker_threads = 2;
  query_ = query::QueryEngine::Create(engine_.get(), qopts);

  // Parse in chunks of whole lines; each chunk is one Gnomon write and feeds SQLite too.
  const std::string& text = lp.data();
  std::vector<std::unique_ptr<storage::WriteBatch>> batches;
  for (size_t pos = 0; pos < text.size();) {
    size_t end = pos;
    for (size_t n = 0; n < config_.lines_per_batch && end < text.size(); ++n) {
      size_t nl = text.find('\n', end);
      end = nl == std::string::npos ? text.size() : nl + 1;
    }
    auto batch = std::make_unique<storage::WriteBatch>("db");
    server::ParseResult pr = server::ParseLineProtocol(std::string_view(text).substr(pos, end - pos), {}, batch.get());
    if (pr.lines_rejected != 0) {
      return Status::Corruption("generated line protocol rejected: " +
                                (pr.errors.empty() ? std::string() : pr.errors[0].reason));
    }
    batches.push_back(std::move(batch));
    pos = end;
  }

  // Schema per table: tags sorted by key, fields in first-write order (what Gnomon's SELECT *
  // returns). Integers are INTEGER, floats REAL, strings TEXT, booleans 0/1.
  struct TableSchema {
    std::set<std::string> tags;
    std::vector<std::string> tag_keys, fields, columns;
    std::vector<ValueType> field_types;
    sqlite3_stmt* insert = nullptr;
  };
  std::map<std::string, TableSchema> tables;
  for (const auto& b : batches) {
    for (const auto& t : b->tables()) {
      TableSchema& ts = tables[t->name()];
      for (const storage::TagSet& tags : t->series()) {
        for (const storage::Tag& tag : tags) ts.tags.insert(tag.key);
      }
      for (const storage::FieldDef& f : t->fields()) {
        if (std::find(ts.fields.begin(), ts.fields.end(), f.name) == ts.fields.end()) {
          ts.fields.push_back(f.name);
          ts.field_types.push_back(f.type);
        }
      }
    }
  }
  for (auto& [name, ts] : tables) {
    ts.tag_keys.assign(ts.tags.begin(), ts.tags.end());
    ts.columns = {"time"};
    ts.columns.insert(ts.columns.end(), ts.tag_keys.begin(), ts.tag_keys.end());
    ts.columns.insert(ts.columns.end(), ts.fields.begin(), ts.fields.end());
    std::string ddl = "CREATE TABLE " + name + "(time INTEGER NOT NULL";
    for (const auto& k : ts.tag_keys) ddl += ", " + k + " TEXT";
    for (size_t i = 0; i < ts.fields.size(); ++i) {
      const ValueType t = ts.field_types[i];
      ddl += ", " + ts.fields[i] + (t == ValueType::kFloat64 ? " REAL" : t == ValueType::kString ? " TEXT" : " INTEGER");
    }
    GNOMON_RETURN_IF_ERROR(sqlite_.Exec(ddl + ")"));
    std::string insert = "INSERT INTO " + name + " VALUES(?";
    for (size_t i = 1; i < ts.columns.size(); ++i) insert += ",?";
    if (sqlite3_prepare_v2(sqlite_.handle(), (insert + ")").c_str(), -1, &ts.insert, nullptr) != SQLITE_OK) {
      return Status::Internal("sqlite prepare failed");
    }
  }
  if (tables.count("cpu")) {
    tag_keys_ = tables["cpu"].tag_keys;
    fields_ = tables["cpu"].fields;
    columns_ = tables["cpu"].columns;
  }
  GNOMON_RETURN_IF_ERROR(sqlite_.Exec("BEGIN"));
  int batch_no = 0;
  for (const auto& b : batches) {
    for (const auto& t : b->tables()) {
      TableSchema& ts = tables[t->name()];
      sqlite3_stmt* stmt = ts.insert;
      for (const storage::Row& row : t->rows()) {
        sqlite3_reset(stmt);
        sqlite3_clear_bindings(stmt);
        sqlite3_bind_int64(stmt, 1, row.time);
        for (const storage::Tag& tag : t->series()[row.series]) {
          int col = static_cast<int>(std::find(ts.tag_keys.begin(), ts.tag_keys.end(), tag.key) - ts.tag_keys.begin());
          sqlite3_bind_text(stmt, 2 + col, tag.value.c_str(), -1, SQLITE_TRANSIENT);
        }
        for (uint32_t v = row.value_begin; v < row.value_begin + row.value_count; ++v) {
          const storage::FieldValue& fv = t->values()[v];
          const storage::FieldDef& def = t->fields()[fv.field];
          int col = static_cast<int>(std::find(ts.fields.begin(), ts.fields.end(), def.name) - ts.fields.begin());
          int idx = 2 + static_cast<int>(ts.tag_keys.size()) + col;
          if (def.type == ValueType::kInt64) {
            sqlite3_bind_int64(stmt, idx, fv.i64);
          } else if (def.type == ValueType::kFloat64) {
            sqlite3_bind_double(stmt, idx, fv.f64);
          } else if (def.type == ValueType::kBool) {
            sqlite3_bind_int64(stmt, idx, fv.b ? 1 : 0);
          } else {
            return Status::Corruption("unexpected field type " + std::string(ValueTypeName(def.type)));
          }
        }
        if (sqlite3_step(stmt) != SQLITE_DONE) return Status::Internal("sqlite insert failed");
        ++rows_;
      }
    }
    GNOMON_RETURN_IF_ERROR(engine_->Write(*b, {}).status());
    ++batch_no;
    if (config_.flush_every > 0 && batch_no % config_.flush_every == 0) GNOMON_RETURN_IF_ERROR(engine_->Flush());
  }
  for (auto& [name, ts] : tables) sqlite3_finalize(ts.insert);
  GNOMON_RETURN_IF_ERROR(sqlite_.Exec("COMMIT"));
  // For SQLite's sake only (correlated subqueries and self-joins by host and time); no answer changes.
  if (tables.count("cpu")) GNOMON_RETURN_IF_ERROR(sqlite_.Exec("CREATE INDEX cpu_host_time ON cpu(hostname, time)"));
  GNOMON_RETURN_IF_ERROR(sqlite_.Exec("ANALYZE"));
  if (config_.flush_every > 0) GNOMON_RETURN_IF_ERROR(engine_->Flush());

  for (const auto& k : tag_keys_) {
    GNOMON_ASSIGN_OR_RETURN(auto rows, sqlite_.Query("SELECT DISTINCT " + k + " FROM cpu ORDER BY 1"));
    std::vector<std::string> values;
    for (const Row& r : rows) values.push_back(r[0].s);
    tag_values_.push_back(std::move(values));
  }
  return Status::OK();
}

Result<std::vector<Row>> OracleData::RunGnomon(const std::string& sql, int64_t now_ns) {
  RowSink sink;
  query::QueryOptions opts;
  opts.database = "db";
  opts.now_ns = now_ns;
  GNOMON_RETURN_IF_ERROR(query_->Execute(sql, opts, &sink));
  return std::move(sink.rows);
}

}  // namespace gnomon::oracle
