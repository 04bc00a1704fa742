#include "src/bench/stats.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace gnomon::bench {

void LatencyStats::Sort() const {
  if (!sorted_) {
    std::sort(values_.begin(), values_.end());
    sorted_ = true;
  }
}

double LatencyStats::Quantile(double q) const {
  if (values_.empty()) return 0;
  Sort();
  // HDR: countAtPercentile = int64(q * count + 0.5), at least 1; the first value whose cumulative
  // count reaches it.
  double rank_f = std::floor(q * static_cast<double>(values_.size()) + 0.5);
  size_t rank = static_cast<size_t>(std::max(1.0, rank_f));
  rank = std::min(rank, values_.size());
  return values_[rank - 1];
}

LatencySummary LatencyStats::Summarize() const {
  LatencySummary s;
  s.count = values_.size();
  if (s.count == 0) return s;
  Sort();
  s.min_ms = values_.front();
  s.max_ms = values_.back();
  for (double v : values_) s.sum_ms += v;
  s.mean_ms = s.sum_ms / s.count;
  double sq = 0;
  for (double v : values_) sq += (v - s.mean_ms) * (v - s.mean_ms);
  s.stddev_ms = std::sqrt(sq / s.count);
  s.median_ms = Quantile(0.5);
  s.p90_ms = Quantile(0.9);
  s.p95_ms = Quantile(0.95);
  s.p99_ms = Quantile(0.99);
  s.p999_ms = Quantile(0.999);
  return s;
}

void StatGroups::Add(const std::string& label, double ms) {
  groups_[label].Add(ms);
  groups_[std::string(kAllQueries)].Add(ms);
}

std::string FormatTsbsStatLine(const LatencySummary& s) {
  char buf[256];
  std::snprintf(buf, sizeof(buf),
                "min: %8.2fms, med: %8.2fms, mean: %8.2fms, max: %7.2fms, stddev: %8.2fms, "
                "sum: %5.1fsec, count: %llu",
                s.min_ms, s.median_ms, s.mean_ms, s.max_ms, s.stddev_ms, s.sum_ms / 1000,
                static_cast<unsigned long long>(s.count));
  return buf;
}

std::string FormatTsbsGroups(const StatGroups& groups) {
  size_t width = 0;
  for (const auto& [label, stats] : groups.groups()) width = std::max(width, label.size());
  std::string out;
  for (const auto& [label, stats] : groups.groups()) {
    out += label;
    out.append(width - label.size(), ' ');
    out += ":\n";
    out += FormatTsbsStatLine(stats.Summarize());
    out += '\n';
  }
  return out;
}

}  // namespace gnomon::bench
