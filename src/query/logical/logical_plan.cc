#include "src/query/logical/logical_plan.h"

namespace gnomon::query {
namespace {

std::string Names(const std::vector<ResultColumn>& columns) {
  std::string out;
  for (const ResultColumn& c : columns) out += (out.empty() ? "" : ", ") + c.name;
  return out;
}

std::string Texts(const std::vector<Predicate>& predicates) {
  std::string out;
  for (const Predicate& p : predicates) out += (out.empty() ? "" : " AND ") + p.text;
  return out;
}

void Render(const LogicalNode& node, int depth, std::string* out) {
  out->append(static_cast<size_t>(depth) * 2, ' ');
  out->append(depth == 0 ? "" : "-> ");
  out->append(node.Describe());
  out->push_back('\n');
  for (const LogicalPtr& c : node.children) Render(*c, depth + 1, out);
}

}  // namespace

std::vector<storage::SeriesId> LogicalGet::Series() const {
  if (pushdown.series) return *pushdown.series;
  std::vector<storage::SeriesId> all(reader->SeriesCount());
  for (size_t i = 0; i < all.size(); ++i) all[i] = static_cast<storage::SeriesId>(i);
  return all;
}

std::string LogicalGet::Describe() const {
  std::string d = "Get " + table + " [" + Names(schema) + "]";
  if (!pushdown.note.empty()) d += ", " + pushdown.note;
  if (!filters.empty()) d += ", filter: " + Texts(filters);
  if (per_series_limit > 0) {
    d += std::string(newest_first ? ", newest " : ", oldest ") + std::to_string(per_series_limit) + " rows per series";
  }
  if (last_point) d += ", last point per series";
  return d;
}

std::string LogicalFilter::Describe() const { return "Filter: " + Texts(predicates); }

bool LogicalProject::OnlyColumnRefs() const {
  for (const BoundExprPtr& e : exprs) {
    if (e->kind != BoundKind::kColumn) return false;
  }
  return true;
}

std::string LogicalProject::Describe() const { return "Project: " + Names(schema); }

std::string LogicalAggregate::Describe() const {
  std::string d = "Aggregate";
  if (!key_names.empty()) {
    d += " by ";
    for (size_t i = 0; i < key_names.size(); ++i) d += (i ? ", " : "") + key_names[i];
  }
  d += ":";
  for (const AggregateSpec& a : aggregates) d += " " + a.text;
  return d;
}

std::string LogicalWindow::Describe() const { return DescribeWindowCalls(calls); }

std::string LogicalJoin::Describe() const {
  std::string d = std::string(asof ? "AsofJoin " : "Join ") + JoinKindName(join_kind);
  if (null_aware) d += " (null-aware)";
  if (conditions.empty()) return d + ": cross";
  return d + ": " + Texts(conditions);
}

std::string LogicalSetOperation::Describe() const { return SetOperationName(op); }

std::string LogicalSort::Describe() const {
  return (top_n >= 0 ? "TopN " + std::to_string(top_n) : std::string("Sort")) + ": " + text;
}

std::string LogicalDistinct::Describe() const {
  std::string d = on ? "Distinct on" : "Distinct";
  for (size_t i = 0; i < key_columns.size(); ++i) d += (i ? ", " : " ") + schema[key_columns[i]].name;
  return d;
}

std::string LogicalLimit::Describe() const {
  std::string d = "Limit";
  if (limit >= 0) d += " " + std::to_string(limit);
  if (offset > 0) d += " offset " + std::to_string(offset);
  return d;
}

std::string LogicalBucketAggregate::Describe() const {
  std::string d = "BucketAggregate " + table + " [" + Names(schema) + "]: " + std::to_string(series.size()) +
                  " series";
  if (!note.empty()) d += ", " + note;
  if (newest_buckets > 0) d += ", newest " + std::to_string(newest_buckets) + " buckets";
  return d;
}

std::string LogicalLastValues::Describe() const {
  return "LastValues " + table + " [" + Names(schema) + "]: " + std::to_string(series.size()) +
         " series from the last-value cache";
}

std::vector<ResultColumn> AggregateSchema(const std::vector<std::string>& key_names,
                                          const std::vector<ValueType>& key_types,
                                          const std::vector<AggregateSpec>& aggregates) {
  std::vector<ResultColumn> out;
  for (size_t i = 0; i < key_names.size(); ++i) out.push_back(ResultColumn{key_names[i], key_types[i]});
  for (const AggregateSpec& a : aggregates) out.push_back(ResultColumn{a.text, a.result_type});
  return out;
}

std::string ExplainLogical(const LogicalNode& root) {
  std::string out;
  Render(root, 0, &out);
  return out;
}

}  // namespace gnomon::query
