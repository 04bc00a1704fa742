// The oracle harness: one TSBS cpu-only data set loaded into Gnomon (through the line-protocol
// parser and Engine::Write) and into an in-memory SQLite table, and the comparison of one
// query's answers from both.
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "src/base/result.h"
#include "src/query/query_engine.h"
#include "src/storage/engine.h"

namespace gnomon::oracle {

// One result cell, engine-neutral: timestamps are their int64 ns, booleans 0/1.
struct Cell {
  enum class Kind { kNull, kInt, kReal, kText } kind = Kind::kNull;
  int64_t i = 0;
  double d = 0;
  std::string s;
  std::string ToString() const;
};
using Row = std::vector<Cell>;

// Cells match: NULL = NULL, ints exactly, reals (or a real and an int) within 1e-9 relative,
// text exactly.
bool CellsMatch(const Cell& a, const Cell& b);

// Compares two results; `ordered`: row order must agree, else both are sorted first.
// Returns "" on a match, else a description (first differing row, both row counts).
std::string CompareResults(const std::vector<Row>& gnomon, const std::vector<Row>& sqlite, bool ordered);

// Owns an in-memory SQLite database.
class SqliteDb {
 public:
  SqliteDb();
  ~SqliteDb();
  SqliteDb(const SqliteDb&) = delete;
  SqliteDb& operator=(const SqliteDb&) = delete;

  Status Exec(const std::string& sql);
  Result<std::vector<Row>> Query(const std::string& sql);
  sqlite3* handle() { return db_; }

 private:
  sqlite3* db_ = nullptr;
};

struct DataSetConfig {
  std::string use_case = "cpu-only";  // or "iot" (tables readings and diagnostics)
  uint64_t scale = 10;
  int64_t start_ns = 1686441600000000000LL;  // 2023-06-11T00:00:00Z
  int64_t end_ns = 1686441600000000000LL + 13 * 3600 * 1000000000LL;
  int64_t seed = 123;
  // Gnomon side: flush after every `flush_every` write batches and at the end (0: never flush,
  // everything stays in memtables).
  int flush_every = 0;
  size_t lines_per_batch = 5000;
};

// The TSBS cpu-only data in both engines. Gnomon lives in a temporary directory.
class OracleData {
 public:
  static Result<std::unique_ptr<OracleData>> Create(const DataSetConfig& config);
  ~OracleData();

  // Column names of cpu (cpu-only data) as `SELECT *` returns them: time, tags (sorted), fields
  // (write order).
  const std::vector<std::string>& columns() const { return columns_; }
  const std::vector<std::string>& tag_keys() const { return tag_keys_; }
  const std::vector<std::string>& field_names() const { return fields_; }
  // Distinct values of each tag key (sorted), for random predicates.
  const std::vector<std::string>& TagValues(const std::string& key) const;
  size_t rows() const { return rows_; }
  const DataSetConfig& config() const { return config_; }

  Result<std::vector<Row>> RunGnomon(const std::string& sql, int64_t now_ns);
  Result<std::vector<Row>> RunSqlite(const std::string& sql) { return sqlite_.Query(sql); }

 private:
  OracleData() = default;
  Status Load();

  DataSetConfig config_;
  std::string dir_;
  std::unique_ptr<storage::Engine> engine_;
  std::unique_ptr<query::QueryEngine> query_;
  SqliteDb sqlite_;
  std::vector<std::string> columns_, tag_keys_, fields_;
  std::vector<std::vector<std::string>> tag_values_;
  size_t rows_ = 0;
};

}  // namespace gnomon::oracle
