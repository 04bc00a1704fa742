// Queries for the oracle: the same question phrased for Gnomon and for SQLite.
//  * TranslateTsbsQuery: rewrites the SQL that bench::GenerateQueries emits (GreptimeDB-builder
//    shapes: date_trunc buckets, RFC 3339 literals, SELECT *, last_value(x ORDER BY time)) into
//    SQLite over `cpu(time INTEGER ns, <tags> TEXT, <fields> INTEGER)`.
//  * RandomQueryGenerator: random aggregate and scan queries built from one set of random choices,
//    rendered twice (Gnomon SQL with its time literal forms, intervals and bucket functions;
//    SQLite SQL with integer nanoseconds and integer bucket arithmetic).
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "src/base/result.h"
#include "test/oracle/oracle_harness.h"

namespace gnomon::oracle {

struct OracleQuery {
  std::string name;        // e.g. "cpu-max-all-8 #2" or "random #17"
  std::string gnomon_sql;
  std::string sqlite_sql;
  bool ordered = false;    // the query has ORDER BY: compare row order too
  std::vector<int> sqrt_columns;  // columns whose SQLite value is a variance: compare its sqrt
  int64_t now_ns = 0;
};

// Nanoseconds since the epoch <-> civil UTC time, independent of Gnomon's own time code.
int64_t CivilToNanos(int y, int mo, int d, int h, int mi, int s, int64_t frac_ns);
// 'YYYY-MM-DDTHH:MM:SSZ' -> ns; false if `text` is not of that form.
bool ParseRfc3339Seconds(const std::string& text, int64_t* ns);

Result<OracleQuery> TranslateTsbsQuery(const std::string& name, const std::string& gnomon_sql,
                                       const OracleData& data);

// A TSBS IoT query's Gnomon SQL (bench::GenerateIotQueries) rewritten for SQLite over readings and
// diagnostics (oracle_iot_queries.cc).
Result<OracleQuery> TranslateIotQuery(const std::string& name, const std::string& gnomon_sql);

class RandomQueryGenerator {
 public:
  RandomQueryGenerator(const OracleData& data, uint64_t seed) : data_(data), rng_(seed) {}
  OracleQuery Next(int index);
  // A window-function query (oracle_window_queries.cc).
  OracleQuery Window(int index);
  // A join, subquery or set-operation query (oracle_join_queries.cc).
  OracleQuery JoinQuery(int index);

 private:
  int Uniform(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
  bool Chance(double p) { return std::bernoulli_distribution(p)(rng_); }
  template <typename T>
  const T& Pick(const std::vector<T>& v) { return v[Uniform(0, static_cast<int>(v.size()) - 1)]; }

  std::string GnomonTime(int64_t ns);
  void TimeWindow(std::vector<std::string>* g, std::vector<std::string>* s, int64_t now_ns);
  void TagFilter(std::vector<std::string>* g, std::vector<std::string>* s);
  void FieldFilter(std::vector<std::string>* g, std::vector<std::string>* s);
  OracleQuery Aggregate(int index);
  OracleQuery Scan(int index);

  const OracleData& data_;
  std::mt19937_64 rng_;
};

}  // namespace gnomon::oracle
