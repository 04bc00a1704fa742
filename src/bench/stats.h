// Query latency statistics, kept exactly (every latency stored) and reported with TSBS's
// definitions (spec 9.4): quantile q is the value at rank max(1, round(q * count)) in sorted
// order (HDR's rule), stddev is the population standard deviation. TSBS's HDR histogram quantizes
// to 4 significant digits, which agrees with these exact figures at the printed precision.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace gnomon::bench {

struct LatencySummary {
  uint64_t count = 0;
  double min_ms = 0;
  double median_ms = 0;
  double mean_ms = 0;
  double p90_ms = 0;
  double p95_ms = 0;
  double p99_ms = 0;
  double p999_ms = 0;
  double max_ms = 0;
  double stddev_ms = 0;
  double sum_ms = 0;
};

class LatencyStats {
 public:
  void Add(double ms) {
    values_.push_back(ms);
    sorted_ = false;
  }
  uint64_t count() const { return values_.size(); }
  // q in [0, 1]; 0 for an empty set.
  double Quantile(double q) const;
  LatencySummary Summarize() const;

 private:
  void Sort() const;
  mutable std::vector<double> values_;
  mutable bool sorted_ = true;
};

// Per-label groups plus "all queries", iterated in byte order of the label (as TSBS prints them).
class StatGroups {
 public:
  static constexpr std::string_view kAllQueries = "all queries";
  void Add(const std::string& label, double ms);
  const std::map<std::string, LatencyStats>& groups() const { return groups_; }

 private:
  std::map<std::string, LatencyStats> groups_;
};

// "min: %8.2fms, med: %8.2fms, mean: %8.2fms, max: %7.2fms, stddev: %8.2fms, sum: %5.1fsec,
// count: %d" (TSBS's per-group line).
std::string FormatTsbsStatLine(const LatencySummary& s);

// Every group as TSBS prints it: the label right-padded to the longest label, ":", newline, the
// stat line, newline.
std::string FormatTsbsGroups(const StatGroups& groups);

}  // namespace gnomon::bench
