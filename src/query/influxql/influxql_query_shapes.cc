#include "src/query/influxql/influxql_query_shapes.h"

#include <algorithm>
#include <cstdio>
#include <set>

#include "src/query/influxql/influxql_shape_parts.h"
#include "src/query/influxql/influxql_selector_shapes.h"

namespace gnomon::query::influxql {
namespace {

Result<std::string> MathCall(const Expr& call, const Relation& rel,
                             const std::function<Result<std::string>(const Expr&)>& call_sql) {
  std::string name = call.text == "log2" ? "log2" : call.text;
  std::string s = name + "(";
  for (size_t i = 0; i < call.args.size(); ++i) {
    GNOMON_ASSIGN_OR_RETURN(std::string a, ValueSql(*call.args[i], rel, call_sql));
    s += (i ? ", " : "") + a;
  }
  return s + ")";
}

// percentile(field, N)'s N, a number literal.
Result<std::string> PercentArgument(const Expr& call) {
  if (call.args.size() != 2) {
    return Status::InvalidArgument("invalid number of arguments for percentile, expected 2, got " + std::to_string(call.args.size()));
  }
  const Expr& n = Unparen(*call.args[1]);
  if (n.kind != Expr::Kind::kInteger && n.kind != Expr::Kind::kNumber) {
    return Status::InvalidArgument("expected float argument in percentile()");
  }
  if (n.kind == Expr::Kind::kInteger) return std::to_string(n.int_value);
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", n.number_value);
  return std::string(buf);
}

// `empty_count_null`: count() of an empty bucket is NULL, for fill(previous) and fill(linear) to
// carry or interpolate over it (InfluxDB fills it so); otherwise it counts 0.
Result<std::string> AggregateCall(const Expr& call, const Relation& rel, bool empty_count_null = false) {
  std::function<Result<std::string>(const Expr&)> self = [&](const Expr& c) {
    return AggregateCall(c, rel, empty_count_null);
  };
  if (IsMathName(call.text)) return MathCall(call, rel, self);
  if (IsTransformName(call.text)) {
    return Status::InvalidArgument(call.text + "() cannot be used inside another function here: " + call.ToString());
  }
  if (!IsAggregateName(call.text)) return Status::InvalidArgument("undefined function " + call.text + "()");
  if (call.args.empty()) return Status::InvalidArgument("invalid number of arguments for " + call.text + ", expected 1, got 0");
  const Expr& arg = Unparen(*call.args[0]);
  if (call.text == "count" && arg.kind == Expr::Kind::kCall && arg.text == "distinct" && arg.args.size() == 1) {
    GNOMON_ASSIGN_OR_RETURN(std::string x, ValueSql(*arg.args[0], rel, self));
    return "count(DISTINCT " + x + ")";
  }
  if (arg.kind != Expr::Kind::kVarRef) {
    return Status::InvalidArgument("expected field argument in " + call.text + "()");
  }
  std::string x = rel.FieldType(arg.text) != nullptr ? Quote(arg.text) : "NULL";
  const std::string& f = call.text;
  if (f == "percentile") {
    GNOMON_ASSIGN_OR_RETURN(std::string p, PercentArgument(call));
    return "percentile_nearest(" + x + ", " + p + ")";
  }
  if (call.args.size() != 1) return Status::InvalidArgument("invalid number of arguments for " + f + ", expected 1, got " + std::to_string(call.args.size()));
  if (f == "mean") return "avg(" + x + ")";
  if (f == "count") return empty_count_null ? "count(" + x + ")" : "coalesce(count(" + x + "), 0)";
  if (f == "sum" || f == "min" || f == "max" || f == "first" || f == "last") return f + "(" + x + ")";
  if (f == "spread") return "(max(" + x + ") - min(" + x + "))";
  if (f == "stddev") return "stddev_samp(" + x + ")";
  if (f == "median") return "median(" + x + ")";
  if (f == "mode") return "mode(" + x + " ORDER BY time)";  // ties: the value seen first
  return Status::InvalidArgument(f + "() is not supported yet");
}

Result<std::string> RawValue(const Expr& e, const Relation& rel) {
  std::function<Result<std::string>(const Expr&)> self = [&](const Expr& c) -> Result<std::string> {
    if (IsMathName(c.text)) return MathCall(c, rel, self);
    return Status::InvalidArgument("undefined function " + c.text + "()");
  };
  return ValueSql(e, rel, self);
}

void FieldRefs(const Expr& e, const Relation& rel, std::set<std::string>* out) {
  if (e.kind == Expr::Kind::kVarRef && rel.FieldType(e.text) != nullptr) out->insert(e.text);
  for (const auto& a : e.args) FieldRefs(*a, rel, out);
}

Result<std::string> RawBody(const ShapeInput& in, const std::vector<const Expr*>& values,
                            const std::vector<std::string>& names, bool distinct_on) {
  std::set<std::string> refs;
  for (const Expr* v : values) FieldRefs(*v, *in.rel, &refs);
  // A measurement's point needs a field; a subquery's rows exist whatever their columns hold.
  const bool subquery = in.rel->subquery;
  // Only tags, or names the measurement lacks: no points (InfluxDB 1.6 answers empty, no error).
  const bool no_points = refs.empty() && !subquery;
  std::string sql = "SELECT ";
  if (distinct_on) sql += "DISTINCT ON (" + Ordinals(in.group_tags.size()) + ") ";
  sql += TagPrefix(in) + "time";
  for (size_t i = 0; i < values.size(); ++i) {
    GNOMON_ASSIGN_OR_RETURN(std::string v, RawValue(*values[i], *in.rel));
    sql += ", " + v + " AS " + Quote(names[i]);
  }
  sql += " FROM " + in.rel->from_sql;
  // A point is a row with any selected field; selecting every field needs no test.
  std::string present;
  if (!subquery && refs.size() < in.rel->fields.size()) {
    for (const auto& r : refs) present += (present.empty() ? "(" : " OR ") + Quote(r) + " IS NOT NULL";
    present += ")";
  }
  GNOMON_ASSIGN_OR_RETURN(std::string where, Where(in, no_points ? "FALSE" : present));
  return sql + where;
}

// The time a bucketless aggregate row carries: a lone selector's point, else the range start.
Result<std::string> AggregateTime(const ShapeInput& in, const std::vector<const Expr*>& values) {
  if (values.size() == 1) {
    const Expr& e = Unparen(*values[0]);
    if (e.kind == Expr::Kind::kCall && IsSelectorName(e.text) && e.args.size() == (e.text == "percentile" ? 2u : 1u) &&
        e.args[0]->kind == Expr::Kind::kVarRef && in.rel->FieldType(e.args[0]->text) != nullptr) {
      std::string x = Quote(e.args[0]->text);
      if (e.text == "percentile") {
        GNOMON_ASSIGN_OR_RETURN(std::string p, PercentArgument(e));
        return "arg_percentile_nearest(time, " + x + ", " + p + ")";
      }
      if (e.text == "max") return "arg_max(time, " + x + ")";
      if (e.text == "min") return "arg_min(time, " + x + ")";
      std::string agg = e.text == "first" ? "min" : "max";
      return agg + "(CASE WHEN " + x + " IS NOT NULL THEN time END)";
    }
  }
  return SqlTimestamp(in.range.lower.value_or(0));
}

Result<std::string> AggregateBody(const ShapeInput& in, const std::vector<const Expr*>& values,
                                  const std::vector<std::string>& names) {
  const SelectStatement& s = *in.select;
  std::string sql = "SELECT " + TagPrefix(in);
  if (in.time_dim) {
    const bool fill = s.fill != FillMode::kNone;
    sql += std::string(fill ? "date_bin_gapfill" : "date_bin") + "(" + SqlInterval(in.time_dim->interval) + ", time, " +
           SqlTimestamp(in.time_dim->offset);
    // The buckets span the statement's range, not the range of whatever rows lie below it.
    if (fill && in.range.lower && in.range.upper) {
      sql += ", " + SqlTimestamp(*in.range.lower) + ", " + SqlTimestamp(*in.range.upper + 1);
    }
    sql += ZoneArgument(in) + ") AS time";
  } else {
    GNOMON_ASSIGN_OR_RETURN(std::string t, AggregateTime(in, values));
    sql += t + " AS time";
  }
  const bool carried = in.time_dim && (s.fill == FillMode::kPrevious || s.fill == FillMode::kLinear);
  for (size_t i = 0; i < values.size(); ++i) {
    std::string v;
    if (values[i]->kind == Expr::Kind::kCall) {
      GNOMON_ASSIGN_OR_RETURN(v, AggregateCall(*values[i], *in.rel, carried));
    } else {
      GNOMON_ASSIGN_OR_RETURN(v, ValueSql(*values[i], *in.rel,
                                          [&](const Expr& c) { return AggregateCall(c, *in.rel, carried); }));
    }
    if (in.time_dim && s.fill == FillMode::kPrevious) v = "locf(" + v + ")";
    if (in.time_dim && s.fill == FillMode::kLinear) v = "interpolate(" + v + ")";
    sql += ", " + v + " AS " + Quote(names[i]);
  }
  sql += " FROM " + in.rel->from_sql;
  GNOMON_ASSIGN_OR_RETURN(std::string where, Where(in, in.time_dim ? BucketRange(in) : std::string()));
  sql += where;
  size_t keys = in.group_tags.size() + (in.time_dim ? 1 : 0);
  if (keys > 0) {
    sql += " GROUP BY " + Ordinals(keys);
  } else {
    sql += " HAVING count(*) > 0";  // no points: no series, as InfluxDB answers
  }
  if (!in.time_dim) {
    // Without buckets a row of nothing but nulls (a missing field, a percentile past the last
    // value) is no point: InfluxDB leaves it out.
    std::string any;
    for (const auto& n : names) any += (any.empty() ? "" : " OR ") + Quote(n) + " IS NOT NULL";
    sql = "SELECT * FROM (" + sql + ") AS " + Quote("__a") + " WHERE " + any;
  }
  if (in.time_dim && s.fill == FillMode::kValue) {
    std::string fill = s.fill_value->ToString();
    std::string outer = "SELECT " + QuotedTags(in) + "time";
    for (const auto& n : names) outer += ", coalesce(" + Quote(n) + ", " + fill + ") AS " + Quote(n);
    sql = outer + " FROM (" + sql + ") AS " + Quote("__fill");
  }
  return sql;
}

// The ungrouped tags a raw query returns, as ORDER BY keys after time (in tag-key order, which
// is series-key order); tags it does not return cannot break ties.
std::string RawTieBreak(const ShapeInput& in) {
  std::string s;
  for (const auto& t : in.rel->tags) {
    if (std::binary_search(in.group_tags.begin(), in.group_tags.end(), t)) continue;
    for (size_t i = 0; i < in.fields.size(); ++i) {
      const Expr& e = *in.fields[i].expr;
      if (e.kind == Expr::Kind::kVarRef && e.text == t) {
        s += ", " + std::to_string(in.group_tags.size() + 2 + i);
        break;
      }
    }
  }
  return s;
}

Result<std::string> TransformSql(const Expr& call, const std::string& v, const std::string& window) {
  const std::string& f = call.text;
  auto unit_arg = [&](int64_t def) -> Result<int64_t> {
    if (call.args.size() < 2) return def;
    if (call.args[1]->kind != Expr::Kind::kDuration) return Status::InvalidArgument("second argument to " + f + " must be a duration");
    return call.args[1]->int_value;
  };
  std::string lag = "lag(" + v + ") OVER (" + window + ")";
  std::string epoch = "date_part('epoch', time)";
  std::string dt = "(" + epoch + " - lag(" + epoch + ") OVER (" + window + "))";
  if (f == "difference") return "(" + v + " - " + lag + ")";
  if (f == "non_negative_difference") {
    return "CASE WHEN " + v + " - " + lag + " >= 0 THEN " + v + " - " + lag + " END";
  }
  if (f == "derivative" || f == "non_negative_derivative") {
    GNOMON_ASSIGN_OR_RETURN(int64_t unit, unit_arg(1'000'000'000));
    std::string d = "((" + v + " - " + lag + ") / (" + dt + " / " + std::to_string(unit / 1e9) + "))";
    if (f == "derivative") return d;
    return "CASE WHEN " + d + " >= 0 THEN " + d + " END";
  }
  if (f == "elapsed") {
    GNOMON_ASSIGN_OR_RETURN(int64_t unit, unit_arg(1));
    return "CAST(round(" + dt + " * 1000000000.0 / " + std::to_string(unit) + ") AS BIGINT)";
  }
  if (f == "cumulative_sum") return "sum(" + v + ") OVER (" + window + " ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)";
  if (f == "moving_average") {
    if (call.args.size() != 2 || call.args[1]->kind != Expr::Kind::kInteger || call.args[1]->int_value < 1) {
      return Status::InvalidArgument("moving_average window must be greater than 1, got " +
                                     (call.args.size() > 1 ? call.args[1]->ToString() : std::string("nothing")));
    }
    int64_t n = call.args[1]->int_value;
    return "CASE WHEN row_number() OVER (" + window + ") >= " + std::to_string(n) + " THEN avg(" + v + ") OVER (" +
           window + " ROWS BETWEEN " + std::to_string(n - 1) + " PRECEDING AND CURRENT ROW) END";
  }
  return Status::InvalidArgument("undefined function " + f + "()");
}

Result<std::string> TransformShape(const ShapeInput& in) {
  std::vector<const Expr*> inner;
  std::vector<std::string> inner_names;
  bool aggregate = false;
  for (size_t i = 0; i < in.fields.size(); ++i) {
    const Expr& call = Unparen(*in.fields[i].expr);
    if (call.kind != Expr::Kind::kCall || !IsTransformName(call.text)) {
      return Status::InvalidArgument("mixing aggregate and non-aggregate queries is not supported");
    }
    if (call.args.empty()) return Status::InvalidArgument("invalid number of arguments for " + call.text);
    inner.push_back(call.args[0].get());
    inner_names.push_back("__v" + std::to_string(i));
    aggregate = aggregate || HasAggregate(*call.args[0]);
  }
  if (in.time_dim && !aggregate) {
    return Status::InvalidArgument("aggregate function required inside the call to " + in.fields[0].expr->text);
  }
  std::string base;
  if (aggregate) {
    GNOMON_ASSIGN_OR_RETURN(base, AggregateBody(in, inner, inner_names));
  } else {
    GNOMON_ASSIGN_OR_RETURN(base, RawBody(in, inner, inner_names, false));
  }
  std::string partition;
  for (size_t i = 0; i < in.group_tags.size(); ++i) partition += (i ? ", " : "") + Quote(in.group_tags[i]);
  std::string window = (partition.empty() ? "" : "PARTITION BY " + partition + " ") + "ORDER BY time";
  std::string sql = "SELECT " + QuotedTags(in) + "time";
  std::string present;
  for (size_t i = 0; i < in.fields.size(); ++i) {
    GNOMON_ASSIGN_OR_RETURN(std::string t, TransformSql(Unparen(*in.fields[i].expr), Quote(inner_names[i]), window));
    sql += ", " + t + " AS " + Quote(in.names[i]);
    present += (i ? " OR " : "") + Quote(in.names[i]) + " IS NOT NULL";
  }
  sql += " FROM (" + base + ") AS " + Quote("__t");
  std::string body = "SELECT * FROM (" + sql + ") AS " + Quote("__w") + " WHERE " + present;
  return Finish(in, body, in.names);
}

}  // namespace

Result<std::string> ShapeSql(const ShapeInput& in) {
  bool any_transform = false, any_aggregate = false, all_aggregate = true;
  for (const Field& f : in.fields) {
    const Expr& e = Unparen(*f.expr);
    if (e.kind == Expr::Kind::kCall && IsMultiPointSelector(e.text)) return MultiPointSelectorSql(in);
    bool transform = e.kind == Expr::Kind::kCall && IsTransformName(e.text);
    any_transform = any_transform || transform;
    bool agg = HasAggregate(e);
    any_aggregate = any_aggregate || agg;
    all_aggregate = all_aggregate && agg;
  }
  if (any_transform) return TransformShape(in);
  std::vector<const Expr*> values;
  for (const Field& f : in.fields) values.push_back(f.expr.get());
  if (any_aggregate) {
    if (!all_aggregate) return Status::InvalidArgument("mixing aggregate and non-aggregate queries is not supported");
    GNOMON_ASSIGN_OR_RETURN(std::string body, AggregateBody(in, values, in.names));
    return Finish(in, body, in.names);
  }
  if (in.time_dim) return Status::InvalidArgument("GROUP BY requires at least one aggregate function");
  const SelectStatement& s = *in.select;
  if (!in.group_tags.empty() && s.limit == 1 && s.offset == 0) {
    // The newest (or oldest) point of each series: DISTINCT ON, which the last-point rules answer.
    GNOMON_ASSIGN_OR_RETURN(std::string body, RawBody(in, values, in.names, true));
    return body + OrderBy(in, "");
  }
  GNOMON_ASSIGN_OR_RETURN(std::string body, RawBody(in, values, in.names, false));
  return Finish(in, body, in.names, RawTieBreak(in));
}

}  // namespace gnomon::query::influxql
