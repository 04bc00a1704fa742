#include "src/query/influxql/influxql_shape_parts.h"

#include <algorithm>

#include "src/base/time_zone.h"

namespace gnomon::query::influxql {

const Expr& Unparen(const Expr& e) { return e.kind == Expr::Kind::kParen ? Unparen(*e.args[0]) : e; }

std::string TagPrefix(const ShapeInput& in) {
  std::string s;
  for (const auto& t : in.group_tags) s += (in.rel->IsTag(t) ? Quote(t) : "CAST(NULL AS VARCHAR)") + " AS " + Quote(t) + ", ";
  return s;
}

std::string QuotedTags(const ShapeInput& in) {
  std::string s;
  for (const auto& t : in.group_tags) s += Quote(t) + ", ";
  return s;
}

std::string Ordinals(size_t n) {
  std::string s;
  for (size_t i = 1; i <= n; ++i) s += (i > 1 ? ", " : "") + std::to_string(i);
  return s;
}

// The columns of a shaped body, by name: tags, time, values.
std::string ColumnList(const ShapeInput& in, const std::vector<std::string>& names) {
  std::string s = QuotedTags(in) + "time";
  for (const auto& n : names) s += ", " + Quote(n);
  return s;
}

Result<std::string> Where(const ShapeInput& in, const std::string& extra) {
  std::string w;
  if (in.select->condition) {
    GNOMON_ASSIGN_OR_RETURN(w, ConditionSql(*in.select->condition, *in.rel, in.now_ns));
  }
  std::string bounds;
  // Reading a subquery, the outer range was already handed down to it: a middle level filtering
  // again would drop the buckets InfluxDB keeps (those starting before the range).
  const TimeRange outer = in.rel->subquery ? TimeRange{} : in.outer_range;
  if (outer.lower) bounds = "time >= " + SqlTimestamp(*outer.lower);
  if (outer.upper) bounds += (bounds.empty() ? "" : " AND ") + ("time <= " + SqlTimestamp(*outer.upper));
  for (const std::string* part : {static_cast<const std::string*>(&bounds), &extra}) {
    if (!part->empty()) w = w.empty() ? *part : "(" + w + ") AND " + *part;
  }
  return w.empty() ? std::string() : " WHERE " + w;
}

std::string BucketOf(const ShapeInput& in, const std::string& column) {
  return "date_bin(" + SqlInterval(in.time_dim->interval) + ", " + column + ", " + SqlTimestamp(in.time_dim->offset) +
         ZoneArgument(in) + ")";
}

std::string ZoneArgument(const ShapeInput& in) {
  const std::string& tz = in.select->tz;
  if (tz.empty()) return "";
  // UTC by the zone's own account (UTC, Etc/UTC, Zulu, ...), as CompileSelect decides it; the
  // parser has already refused a zone the system lacks.
  auto zone = TimeZone::Load(tz);
  if (!zone.ok() || (*zone)->is_utc()) return "";
  return ", " + SqlString(tz);
}

// Buckets run over the WHERE clause's range; InfluxDB starts an open range at the first point
// (its shards' first time) and ends it at now().
std::string BucketRange(const ShapeInput& in) {
  std::string extra;
  if (!in.range.lower) {
    std::string first = "SELECT min(time) FROM " + in.rel->from_sql;
    auto where = Where(in, "");
    if (where.ok()) first += *where;
    extra = "time >= (" + first + ")";
  }
  if (!in.range.upper) extra += (extra.empty() ? "" : " AND ") + std::string("time <= ") + SqlTimestamp(in.now_ns);
  return extra;
}

// Series in tag order, points in time order (both reversed by ORDER BY time DESC, as InfluxDB
// does); raw points of one time in series-key order (`tie_break`: their other tags' columns).
std::string OrderBy(const ShapeInput& in, const std::string& tie_break) {
  const char* dir = in.select->order_desc ? " DESC" : "";
  // A series without the tag sorts as its empty value would, first.
  const char* tag_dir = in.select->order_desc ? " DESC NULLS LAST" : " NULLS FIRST";
  std::string order = " ORDER BY ";
  for (size_t i = 1; i <= in.group_tags.size(); ++i) order += std::to_string(i) + tag_dir + ", ";
  order += std::to_string(in.group_tags.size() + 1) + dir;
  return order + tie_break;
}

// LIMIT/OFFSET count points within each series: row_number per series where there are several.
std::string Finish(const ShapeInput& in, const std::string& body, const std::vector<std::string>& names,
                   const std::string& tie_break) {
  const SelectStatement& s = *in.select;
  size_t ntags = in.group_tags.size();
  std::string order = OrderBy(in, tie_break);
  if (s.limit == 0 && s.offset == 0) return body + order;
  if (ntags == 0) {
    std::string sql = body + order;
    if (s.limit > 0) sql += " LIMIT " + std::to_string(s.limit);
    if (s.offset > 0) sql += " OFFSET " + std::to_string(s.offset);
    return sql;
  }
  std::string partition;
  for (size_t i = 0; i < ntags; ++i) partition += (i ? ", " : "") + Quote(in.group_tags[i]);
  std::string cols = ColumnList(in, names);
  std::string ranked = "SELECT " + cols + ", row_number() OVER (PARTITION BY " + partition + " ORDER BY time" +
                       (s.order_desc ? " DESC" : "") + ") AS " + Quote("__rn") + " FROM (" + body + ") AS " +
                       Quote("__b");
  std::string cond = Quote("__rn") + " > " + std::to_string(s.offset);
  if (s.limit > 0) cond += " AND " + Quote("__rn") + " <= " + std::to_string(s.offset + s.limit);
  return "SELECT " + cols + " FROM (" + ranked + ") AS " + Quote("__r") + " WHERE " + cond + order;
}

}  // namespace gnomon::query::influxql
