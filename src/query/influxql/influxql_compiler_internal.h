// Pieces of the InfluxQL compiler shared by its files: the relation a SELECT reads, expression
// translation and the time range of a WHERE clause.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "src/base/result.h"
#include "src/query/influxql/influxql_ast.h"
#include "src/query/influxql/influxql_compiler.h"

namespace gnomon::query::influxql {

// What a SELECT reads from: a measurement or a compiled subquery, with the names it offers.
struct Relation {
  std::string from_sql;  // "db"."m" or (SELECT ...) AS "__sub"
  std::vector<std::string> tags;                  // sorted
  std::vector<std::pair<std::string, ValueType>> fields;  // subquery: its value columns
  bool subquery = false;  // a subquery's tags are its series' tags: '' where a series lacks one
  bool IsTag(const std::string& n) const;
  const ValueType* FieldType(const std::string& n) const;
};

// The bounds a WHERE clause puts on time, both inclusive.
struct TimeRange {
  std::optional<int64_t> lower, upper;
};

std::string Quote(const std::string& identifier);  // "name" for SQL
std::string SqlString(const std::string& value);   // 'value' for SQL
std::string SqlTimestamp(int64_t ns);              // TIMESTAMP '2023-06-11T00:00:00Z'
std::string SqlInterval(int64_t ns);               // INTERVAL '1 hour'

// A time constant: a string ('2023-06-11T00:00:00Z'), an integer (ns), a duration, now(), or
// + / - of those. nullopt when `e` is not one.
Result<std::optional<int64_t>> EvalTime(const Expr& e, int64_t now_ns);

// Reads the time conditions of `condition`'s top-level AND into *range.
Status ExtractTimeRange(const Expr* condition, int64_t now_ns, TimeRange* range);

// WHERE (tags, fields, time) as SQL. Names the relation lacks read as NULL.
Result<std::string> ConditionSql(const Expr& e, const Relation& rel, int64_t now_ns);

// A select-list expression as SQL. `aggregate_sql` renders calls (the select compiler decides
// what an aggregate becomes); plain names go through the relation.
Result<std::string> ValueSql(const Expr& e, const Relation& rel,
                             const std::function<Result<std::string>(const Expr& call)>& call_sql);

bool IsAggregateName(const std::string& fn);   // count, mean, max, ...
bool IsSelectorName(const std::string& fn);    // first, last, max, min (their point's time)
bool IsTransformName(const std::string& fn);   // difference, derivative, elapsed, ...
bool IsMathName(const std::string& fn);        // abs, floor, ...
bool HasAggregate(const Expr& e);

// InfluxDB's column name of a field without alias: a call's name, a variable's name, or those of
// a binary expression joined with '_'.
std::string FieldName(const Expr& e);
// Output names: aliases first, then generated names, duplicates numbered (max, max_1, ...).
std::vector<std::string> ColumnNames(const std::vector<Field>& fields);

}  // namespace gnomon::query::influxql
