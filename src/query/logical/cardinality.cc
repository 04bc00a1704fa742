#include "src/query/logical/cardinality.h"

#include <algorithm>

namespace gnomon::query {
namespace {

constexpr double kRowsPerSeries = 1000;  // over the table's whole time span
constexpr double kFilterSelectivity = 0.5;

// The share of a table's time span that [min, max] covers.
double TimeFraction(const storage::TableReader& reader, int64_t min_time, int64_t max_time) {
  int64_t lo = 0, hi = 0;
  reader.TimeRange(&lo, &hi);
  if (lo > hi) return 0;
  const double span = static_cast<double>(hi) - static_cast<double>(lo) + 1;
  const double a = std::max<double>(static_cast<double>(lo), static_cast<double>(min_time));
  const double b = std::min<double>(static_cast<double>(hi), static_cast<double>(max_time));
  return b < a ? 0 : std::min(1.0, (b - a + 1) / span);
}

double GetRows(const LogicalGet& get) {
  const double series = get.pushdown.series ? static_cast<double>(get.pushdown.series->size())
                                            : static_cast<double>(get.reader->SeriesCount());
  if (get.last_point) return series;
  double rows = series * kRowsPerSeries * TimeFraction(*get.reader, get.pushdown.min_time, get.pushdown.max_time);
  if (get.per_series_limit > 0) rows = std::min(rows, series * static_cast<double>(get.per_series_limit));
  for (size_t i = 0; i < get.filters.size() && i < 3; ++i) rows *= kFilterSelectivity;
  return rows;
}

}  // namespace

double EstimateRows(const LogicalNode& node) {
  auto child = [&](size_t i) { return EstimateRows(*node.children[i]); };
  switch (node.kind) {
    case LogicalKind::kGet: return GetRows(node.As<LogicalGet>());
    case LogicalKind::kValues: return static_cast<double>(node.As<LogicalValues>().chunk.rows);
    case LogicalKind::kFilter: return child(0) * kFilterSelectivity;
    case LogicalKind::kAggregate:
      return node.As<LogicalAggregate>().keys.empty() ? 1 : std::max(1.0, child(0) / 10);
    case LogicalKind::kLimit: {
      const auto& l = node.As<LogicalLimit>();
      return l.limit < 0 ? child(0) : std::min(child(0), static_cast<double>(l.limit));
    }
    case LogicalKind::kDistinct: return std::max(1.0, child(0) / 2);
    case LogicalKind::kJoin: {
      const auto& j = node.As<LogicalJoin>();
      if (j.join_kind == JoinKind::kSemi || j.join_kind == JoinKind::kAnti) return child(0) * kFilterSelectivity;
      return j.conditions.empty() ? child(0) * child(1) : std::max(child(0), child(1));
    }
    case LogicalKind::kSetOperation: return child(0) + child(1);
    case LogicalKind::kBucketAggregate: {
      const auto& b = node.As<LogicalBucketAggregate>();
      return b.newest_buckets > 0 ? static_cast<double>(b.newest_buckets) * b.series.size()
                                  : static_cast<double>(b.series.size()) * 100;
    }
    case LogicalKind::kLastValues: return static_cast<double>(node.As<LogicalLastValues>().series.size());
    case LogicalKind::kProject:
    case LogicalKind::kSort:
    case LogicalKind::kWindow:
    case LogicalKind::kGapFill: return child(0);
  }
  return 1;
}

}  // namespace gnomon::query
