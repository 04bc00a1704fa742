// InfluxQL statements as parsed: SELECT (with subqueries), the SHOW meta queries and the
// database/retention administration InfluxDB 1.x clients send. The compiler turns a SELECT into
// SQL for the one query engine; the /query handler answers the rest from the catalog.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace gnomon::query::influxql {

struct Expr;
using ExprPtr = std::unique_ptr<Expr>;

// One node of an InfluxQL expression. Binary operators keep their text ("+", "AND", "=~").
struct Expr {
  enum class Kind : uint8_t {
    kVarRef,    // name (a field or tag); type_hint from name::field / name::tag
    kCall,      // name(args...)
    kBinary,    // args[0] op args[1]
    kParen,     // (args[0]), kept so names and printing follow what was written
    kInteger,
    kNumber,
    kString,
    kBoolean,
    kRegex,     // /pattern/ in text
    kDuration,  // 10m: int_value nanoseconds
    kWildcard,  // * (select list, or count(*)); type_hint from *::field / *::tag
  };
  Kind kind = Kind::kVarRef;
  std::string text;       // var name, call name, operator, string value, regex pattern
  std::string type_hint;  // "field", "tag" or empty
  int64_t int_value = 0;
  double number_value = 0;
  bool bool_value = false;
  std::vector<ExprPtr> args;

  ExprPtr Copy() const;
  std::string ToString() const;
};

ExprPtr MakeVarRef(std::string name);
ExprPtr MakeBinary(std::string op, ExprPtr left, ExprPtr right);

struct Field {
  ExprPtr expr;
  std::string alias;
};

struct SelectStatement;

// FROM item: a measurement ([db.[rp.]]name), a /regex/ over measurement names, or a subquery.
// INTO db..:MEASUREMENT: each source measurement's points go to the measurement of its name.
inline constexpr const char* kMeasurementBackref = ":MEASUREMENT";

struct Source {
  std::string database;
  std::string retention_policy;
  std::string measurement;
  bool measurement_backref = false;  // the measurement is :MEASUREMENT (INTO only)
  std::optional<std::string> regex;
  std::unique_ptr<SelectStatement> subquery;
};

struct Dimension {
  enum class Kind : uint8_t { kTime, kTag, kRegex, kWildcard };
  Kind kind = Kind::kTag;
  std::string name;      // tag name or regex pattern
  int64_t interval = 0;  // time(interval[, offset]) in ns
  int64_t offset = 0;
};

enum class FillMode : uint8_t { kNull, kNone, kPrevious, kLinear, kValue };

struct SelectStatement {
  std::vector<Field> fields;
  std::optional<Source> into;  // INTO target measurement
  std::vector<Source> sources;
  ExprPtr condition;
  std::vector<Dimension> dimensions;
  FillMode fill = FillMode::kNull;
  ExprPtr fill_value;  // kValue: an integer or number constant
  bool order_desc = false;
  int64_t limit = 0, offset = 0, slimit = 0, soffset = 0;  // 0: none
  std::string tz;  // tz('America/Chicago'); empty: UTC
};

struct Statement {
  enum class Kind : uint8_t {
    kSelect,
    kExplain,
    kShowDatabases,
    kShowMeasurements,
    kShowTagKeys,
    kShowTagValues,
    kShowFieldKeys,
    kShowSeries,
    kShowSeriesCardinality,
    kShowMeasurementCardinality,
    kShowRetentionPolicies,
    kCreateDatabase,
    kDropDatabase,
    kDropMeasurement,
    kDropSeries,
    kDelete,
    kCreateRetentionPolicy,
    kAlterRetentionPolicy,
    kDropRetentionPolicy,
  };
  Kind kind = Kind::kSelect;
  std::string text;  // the statement as written, trimmed

  std::unique_ptr<SelectStatement> select;  // kSelect, kExplain (explain_analyze for ANALYZE)
  bool explain_analyze = false;

  std::string database;     // ON db / CREATE DATABASE db / DROP DATABASE db
  std::string name;         // retention policy name; DROP MEASUREMENT name
  std::vector<Source> sources;  // SHOW ... FROM; DELETE/DROP SERIES FROM
  ExprPtr condition;        // WHERE of SHOW, DELETE, DROP SERIES
  // SHOW MEASUREMENTS WITH MEASUREMENT =~ /re/ (or = name); SHOW TAG VALUES WITH KEY op ...
  std::string with_op;                  // "=", "!=", "=~", "!~", "IN"; empty when absent
  std::vector<std::string> with_values;  // names, or one regex pattern
  int64_t limit = 0, offset = 0;
  int64_t duration_ns = -1;  // WITH DURATION / DURATION d; 0 = INF; -1 = not given
  bool make_default = false;  // DEFAULT
  int64_t replication = 0;    // REPLICATION n; 0 = not given
};

}  // namespace gnomon::query::influxql
