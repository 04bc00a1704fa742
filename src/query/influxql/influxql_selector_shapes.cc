#include "src/query/influxql/influxql_selector_shapes.h"

#include "src/query/influxql/influxql_shape_parts.h"

namespace gnomon::query::influxql {
namespace {

// The column a selected name reads: a field or tag of the relation, else NULL.
std::string ColumnOf(const Relation& rel, const std::string& name) {
  return rel.FieldType(name) != nullptr || rel.IsTag(name) ? Quote(name) : "NULL";
}

// PARTITION BY keys of one group: its tags, its GROUP BY time() bucket unless `by_bucket` is
// false, and `more`.
std::string GroupPartition(const ShapeInput& in, const std::string& more = "", bool by_bucket = true) {
  std::string p;
  for (const auto& t : in.group_tags) {
    if (in.rel->IsTag(t)) p += (p.empty() ? "" : ", ") + Quote(t);
  }
  if (in.time_dim && by_bucket) p += (p.empty() ? "" : ", ") + BucketOf(in, "time");
  if (!more.empty()) p += (p.empty() ? "" : ", ") + more;
  return p.empty() ? "" : "PARTITION BY " + p + " ";
}

struct TopCall {
  const Expr* call = nullptr;
  size_t field_index = 0;         // its place among the statement's fields
  std::string field;              // the ranked field
  std::vector<std::string> tags;  // top(field, tag..., N): one point per combination of these
  int64_t n = 0;
};

// sample(field, N), in InfluxDB's words when it is not.
Result<TopCall> ParseSampleCall(const Expr& c, TopCall t) {
  if (c.args.size() != 2) {
    return Status::InvalidArgument("invalid number of arguments for sample, expected 2, got " + std::to_string(c.args.size()));
  }
  const Expr& n = Unparen(*c.args[1]);
  if (n.kind != Expr::Kind::kInteger) return Status::InvalidArgument("expected integer argument in sample()");
  if (n.int_value < 1) {
    return Status::InvalidArgument("sample window must be greater than 1, got " + std::to_string(n.int_value));
  }
  if (c.args[0]->kind != Expr::Kind::kVarRef) {
    return Status::InvalidArgument("expected field argument in sample(), found " + c.args[0]->ToString());
  }
  t.field = c.args[0]->text;
  t.n = n.int_value;
  return t;
}

Result<TopCall> ParseTopCall(const ShapeInput& in) {
  TopCall t;
  for (size_t i = 0; i < in.fields.size(); ++i) {
    const Expr& e = Unparen(*in.fields[i].expr);
    if (e.kind == Expr::Kind::kVarRef) continue;
    if (e.kind != Expr::Kind::kCall || (e.text != "top" && e.text != "bottom" && e.text != "sample") ||
        t.call != nullptr) {
      const std::string f = t.call ? t.call->text : (e.kind == Expr::Kind::kCall ? e.text : "top");
      return Status::InvalidArgument("selector function " + f + "() cannot be combined with other functions");
    }
    t.call = &e;
    t.field_index = i;
  }
  const Expr& c = *t.call;
  if (c.text == "sample") return ParseSampleCall(c, t);
  if (c.args.size() < 2) {
    return Status::InvalidArgument("invalid number of arguments for " + c.text + ", expected at least 2, got " +
                                   std::to_string(c.args.size()));
  }
  const Expr& last = Unparen(*c.args.back());
  if (last.kind != Expr::Kind::kInteger) {
    return Status::InvalidArgument("expected integer as last argument in " + c.text + "(), found " + last.ToString());
  }
  if (last.int_value < 1) {
    return Status::InvalidArgument("limit (" + std::to_string(last.int_value) + ") in " + c.text +
                                   " function must be at least 1");
  }
  t.n = last.int_value;
  if (in.select->limit > 0 && t.n > in.select->limit) {
    return Status::InvalidArgument("limit (" + std::to_string(t.n) + ") in " + c.text +
                                   " function can not be larger than the LIMIT (" + std::to_string(in.select->limit) +
                                   ") in the select statement");
  }
  if (c.args[0]->kind != Expr::Kind::kVarRef) {
    return Status::InvalidArgument("expected first argument to be a field in " + c.text + "(), found " + c.args[0]->ToString());
  }
  t.field = c.args[0]->text;
  for (size_t i = 1; i + 1 < c.args.size(); ++i) {
    if (c.args[i]->kind != Expr::Kind::kVarRef) {
      return Status::InvalidArgument("only fields or tags are allowed in " + c.text + "(), found " + c.args[i]->ToString());
    }
    t.tags.push_back(c.args[i]->text);
  }
  return t;
}

// top()/bottom(): the n points of each group with the largest (smallest) values, earliest first
// among equal values, at their own times; with tag arguments, the best point of each combination
// of those tags first. Other selected fields and tags come from the same points. sample(): n
// points of each group drawn at random (all of them when it has no more), in time order.
Result<std::string> TopSql(const ShapeInput& in) {
  GNOMON_ASSIGN_OR_RETURN(TopCall t, ParseTopCall(in));
  const std::string x = ColumnOf(*in.rel, t.field);
  const bool sample = t.call->text == "sample";
  const std::string dir = t.call->text == "top" ? " DESC" : " ASC";
  std::string cols = TagPrefix(in) + "time";
  for (size_t i = 0; i < in.fields.size(); ++i) {
    const Expr& e = Unparen(*in.fields[i].expr);
    cols += ", " + (i == t.field_index ? x : ColumnOf(*in.rel, e.text)) + " AS " + Quote(in.names[i]);
  }
  const std::string ranked = Quote(in.names[t.field_index]);
  GNOMON_ASSIGN_OR_RETURN(std::string where, Where(in, x + " IS NOT NULL"));
  std::string points = "SELECT " + cols + " FROM " + in.rel->from_sql + where;
  if (!t.tags.empty()) {
    std::string by;
    for (const auto& tag : t.tags) by += (by.empty() ? "" : ", ") + ColumnOf(*in.rel, tag);
    points = "SELECT * FROM (SELECT *, row_number() OVER (" + GroupPartition(in, by) + "ORDER BY " + ranked + dir +
             ", time) AS " + Quote("__best") + " FROM (" + points + ") AS " + Quote("__p") + ") AS " +
             Quote("__b") + " WHERE " + Quote("__best") + " = 1";
  }
  const std::string order = sample ? "random()" : ranked + dir + ", time";
  std::string rank = "SELECT *, row_number() OVER (" + GroupPartition(in) + "ORDER BY " + order + ") AS " +
                     Quote("__rank") + " FROM (" + points + ") AS " + Quote("__q");
  std::string body = "SELECT " + ColumnList(in, in.names) + " FROM (" + rank + ") AS " + Quote("__s") + " WHERE " +
                     Quote("__rank") + " <= " + std::to_string(t.n);
  return Finish(in, body, in.names, sample ? "" : ", " + ranked + dir);
}

// distinct(field): each value of a group once, at the group's time (the range's or the bucket's
// start), in the order the values first occur.
Result<std::string> DistinctSql(const ShapeInput& in) {
  if (in.fields.size() != 1) {
    return Status::InvalidArgument("aggregate function distinct() cannot be combined with other functions or fields");
  }
  const Expr& c = Unparen(*in.fields[0].expr);
  if (c.args.size() != 1) return Status::InvalidArgument("distinct function can only have one argument");
  if (c.args[0]->kind != Expr::Kind::kVarRef) return Status::InvalidArgument("expected field argument in distinct()");
  const std::string x = ColumnOf(*in.rel, c.args[0]->text);
  const std::string time = in.time_dim ? BucketOf(in, "time") : SqlTimestamp(in.range.lower.value_or(0));
  GNOMON_ASSIGN_OR_RETURN(std::string where, Where(in, x + " IS NOT NULL"));
  std::string body = "SELECT " + TagPrefix(in) + time + " AS time, " + x + " AS " + Quote(in.names[0]) +
                     ", min(time) AS " + Quote("__first") + " FROM " + in.rel->from_sql + where + " GROUP BY " +
                     Ordinals(in.group_tags.size() + 2);
  body = "SELECT " + ColumnList(in, in.names) + " FROM (" + body + ") AS " + Quote("__d");
  return Finish(in, body, in.names, ", " + Quote("__first"));
}

// integral(field[, unit]): the area under the points joined by straight lines (trapezoids), in
// value x unit (default 1s). With GROUP BY time() a line crossing a bucket's end is split there at
// its interpolated value; the rest of it, however many empty buckets it spans, counts for the
// bucket of its later point, as InfluxDB 1.x's reducer does.
Result<std::string> IntegralSql(const ShapeInput& in) {
  if (in.fields.size() != 1) return Status::InvalidArgument("integral() cannot be combined with other fields or functions yet");
  const Expr& c = Unparen(*in.fields[0].expr);
  if (c.args.empty() || c.args.size() > 2 || c.args[0]->kind != Expr::Kind::kVarRef) {
    return Status::InvalidArgument("invalid number of arguments for integral, expected 1 or 2, got " + std::to_string(c.args.size()));
  }
  int64_t unit = 1'000'000'000;
  if (c.args.size() == 2) {
    if (c.args[1]->kind != Expr::Kind::kDuration) return Status::InvalidArgument("second argument must be a duration");
    unit = c.args[1]->int_value;
    if (unit <= 0) return Status::InvalidArgument("duration argument must be positive, got " + c.args[1]->ToString());
  }
  const std::string x = ColumnOf(*in.rel, c.args[0]->text);
  const std::string unit_s = std::to_string(static_cast<double>(unit) / 1e9);
  // Segments join consecutive points of a group across bucket ends.
  const std::string over = "OVER (" + GroupPartition(in, "", false) + "ORDER BY time)";
  GNOMON_ASSIGN_OR_RETURN(std::string where, Where(in, x + " IS NOT NULL"));
  // Each point with the one before it in its group: a segment (pt, pv) -> (t, v), in seconds.
  std::string segs = "SELECT " + TagPrefix(in) + "time, date_part('epoch', time) AS " + Quote("__t") + ", " + x +
                     " AS " + Quote("__v") + ", lag(date_part('epoch', time)) " + over + " AS " + Quote("__pt") +
                     ", lag(" + x + ") " + over + " AS " + Quote("__pv") + ", lag(time) " + over + " AS " +
                     Quote("__ptime") + " FROM " + in.rel->from_sql + where;
  const std::string t = Quote("__t"), v = Quote("__v"), pt = Quote("__pt"), pv = Quote("__pv");
  const std::string tags = QuotedTags(in);
  if (!in.time_dim) {
    std::string time = SqlTimestamp(in.range.lower.value_or(0));
    std::string body = "SELECT " + tags + time + " AS time, coalesce(sum((" + v + " + " + pv + ") / 2.0 * (" + t + " - " + pt +
                       ")), 0) / " + unit_s + " AS " + Quote(in.names[0]) + " FROM (" + segs + ") AS " + Quote("__s") +
                       " GROUP BY " + Ordinals(in.group_tags.size() + 1);
    return Finish(in, body, in.names);
  }
  // A bucket's end is its next bucket's start: a width later, except where tz()'s clock changes
  // made the bucket longer or shorter.
  const std::string bucket_end = "date_bin_end(" + SqlInterval(in.time_dim->interval) + ", " + Quote("__ptime") + ", " +
                                 SqlTimestamp(in.time_dim->offset) + ZoneArgument(in) + ")";
  std::string split = "SELECT " + tags + BucketOf(in, "time") + " AS " + Quote("__b") + ", " + BucketOf(in, Quote("__ptime")) +
                      " AS " + Quote("__pb") + ", " + t + ", " + v + ", " + pt + ", " + pv + ", date_part('epoch', " +
                      bucket_end + ") AS " + Quote("__be") + " FROM (" + segs + ") AS " +
                      Quote("__s") + " WHERE " + pv + " IS NOT NULL";
  const std::string be = Quote("__be");
  const std::string vb = "(" + pv + " + (" + v + " - " + pv + ") * (" + be + " - " + pt + ") / (" + t + " - " + pt + "))";
  const std::string same = Quote("__b") + " = " + Quote("__pb");
  std::string parts = "SELECT " + tags + Quote("__b") + " AS " + Quote("__bucket") + ", CASE WHEN " + same + " THEN (" + v +
                      " + " + pv + ") / 2.0 * (" + t + " - " + pt + ") ELSE (" + v + " + " + vb + ") / 2.0 * (" + t + " - " +
                      be + ") END AS " + Quote("__area") + " FROM (" + split + ") AS " + Quote("__x") +
                      " UNION ALL SELECT " + tags + Quote("__pb") + ", (" + pv + " + " + vb + ") / 2.0 * (" + be + " - " +
                      pt + ") FROM (" + split + ") AS " + Quote("__y") + " WHERE NOT (" + same + ")";
  const bool fill = in.select->fill != FillMode::kNone;
  std::string time = Quote("__bucket");
  if (fill && in.range.lower && in.range.upper) {
    time = "date_bin_gapfill(" + SqlInterval(in.time_dim->interval) + ", " + Quote("__bucket") + ", " +
           SqlTimestamp(in.time_dim->offset) + ", " + SqlTimestamp(*in.range.lower) + ", " +
           SqlTimestamp(*in.range.upper + 1) + ZoneArgument(in) + ")";
  }
  std::string body = "SELECT " + tags + time + " AS time, sum(" + Quote("__area") + ") / " + unit_s + " AS " +
                     Quote(in.names[0]) + " FROM (" + parts + ") AS " + Quote("__parts") + " GROUP BY " +
                     Ordinals(in.group_tags.size() + 1);
  return Finish(in, body, in.names);
}

}  // namespace

bool IsMultiPointSelector(const std::string& fn) {
  return fn == "top" || fn == "bottom" || fn == "sample" || fn == "distinct" || fn == "integral";
}

Result<std::string> MultiPointSelectorSql(const ShapeInput& in) {
  for (const Field& f : in.fields) {
    const Expr& e = Unparen(*f.expr);
    if (e.kind == Expr::Kind::kCall && e.text == "distinct") return DistinctSql(in);
    if (e.kind == Expr::Kind::kCall && e.text == "integral") return IntegralSql(in);
  }
  return TopSql(in);
}

}  // namespace gnomon::query::influxql
