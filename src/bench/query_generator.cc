#include "src/bench/query_generator.h"

#include <cstdio>

#include "src/base/time_util.h"
#include "src/bench/go_rand.h"
#include "src/bench/query_random.h"

namespace gnomon::bench {
namespace {

constexpr const char* kMetrics[10] = {"usage_user",  "usage_system",  "usage_idle",  "usage_nice",
                                      "usage_iowait", "usage_irq",    "usage_softirq", "usage_steal",
                                      "usage_guest", "usage_guest_nice"};
constexpr const char* kTags[10] = {"hostname", "region", "datacenter", "rack", "os",
                                   "arch", "team", "service", "service_version",
                                   "service_environment"};

class Builder {
 public:
  Builder(const QueryGenConfig& c, GoRand* rng) : c_(c), rng_(rng), t_(c.influxql ? "time" : c.time_column) {}

  Result<Window> RandWindow(int64_t d) { return bench::RandWindow(rng_, c_.start_ns, c_.end_ns, d); }

  Result<std::vector<std::string>> RandHosts(uint64_t n) {
    GNOMON_ASSIGN_OR_RETURN(std::vector<int64_t> ids, RandSubset(rng_, n, c_.scale, "hosts"));
    std::vector<std::string> hosts;
    for (int64_t h : ids) hosts.push_back("host_" + std::to_string(h));
    return hosts;
  }

  static std::string HostFilter(const std::vector<std::string>& hosts) {
    std::string s = "(";
    for (size_t i = 0; i < hosts.size(); ++i) {
      if (i > 0) s += " or ";
      s += "hostname = '" + hosts[i] + "'";
    }
    return s + ")";
  }

  std::string Range(const Window& w) const {
    return t_ + " >= '" + Rfc3339Seconds(w.start) + "' and " + t_ + " < '" + Rfc3339Seconds(w.end) + "'";
  }

  static std::string Aggregates(const char* fn, int n, const char* sep) {
    std::string s;
    for (int i = 0; i < n; ++i) {
      if (i > 0) s += sep;
      s += std::string(fn) + "(" + kMetrics[i] + ")";
    }
    return s;
  }

  // single-groupby-M-H-T
  Result<GeneratedQuery> SingleGroupby(int metrics, uint64_t hosts, int hours) {
    GNOMON_ASSIGN_OR_RETURN(Window w, RandWindow(hours * kNanosPerHour));
    GNOMON_ASSIGN_OR_RETURN(std::vector<std::string> hs, RandHosts(hosts));
    char label[160];
    std::snprintf(label, sizeof(label), "Influx %d cpu metric(s), random %4llu hosts, random %dh0m0s by 1m",
                  metrics, static_cast<unsigned long long>(hosts), hours);
    const std::string bucket = "date_trunc('minute', " + t_ + ")";
    std::string sql = c_.influxql ? "SELECT " + Aggregates("max", metrics, ", ") + " from cpu where " + HostFilter(hs) +
                                        " and " + Range(w) + " group by time(1m)"
                                  : "SELECT " + Aggregates("max", metrics, ", ") + ", " + bucket + " from cpu where " +
                                        HostFilter(hs) + " and " + Range(w) + " group by " + bucket;
    return Make(label, Rfc3339Seconds(w.start), sql);
  }

  // cpu-max-all-H (and -32-24, whose label keeps TSBS's "8h0m0s")
  Result<GeneratedQuery> MaxAllCpu(uint64_t hosts, int hours) {
    GNOMON_ASSIGN_OR_RETURN(Window w, RandWindow(hours * kNanosPerHour));
    GNOMON_ASSIGN_OR_RETURN(std::vector<std::string> hs, RandHosts(hosts));
    char label[160];
    std::snprintf(label, sizeof(label),
                  "Influx max of all CPU metrics, random %4llu hosts, random 8h0m0s by 1h",
                  static_cast<unsigned long long>(hosts));
    const std::string bucket = "date_trunc('hour', " + t_ + ")";
    std::string sql = c_.influxql ? "SELECT " + Aggregates("max", 10, ",") + " from cpu where " + HostFilter(hs) +
                                        " and " + Range(w) + " group by time(1h)"
                                  : "SELECT " + Aggregates("max", 10, ",") + ", " + bucket + " from cpu where " +
                                        HostFilter(hs) + " and " + Range(w) + " group by " + bucket;
    return Make(label, Rfc3339Seconds(w.start), sql);
  }

  Result<GeneratedQuery> DoubleGroupby(int metrics) {
    GNOMON_ASSIGN_OR_RETURN(Window w, RandWindow(12 * kNanosPerHour));
    const std::string label =
        "Influx mean of " + std::to_string(metrics) + " metrics, all hosts, random 12h0m0s by 1h";
    const std::string bucket = "date_trunc('hour', " + t_ + ")";
    std::string sql = c_.influxql ? "SELECT " + Aggregates("mean", metrics, ", ") + " from cpu where " + Range(w) +
                                        " group by time(1h),hostname"
                                  : "SELECT " + Aggregates("avg", metrics, ", ") + ", " + bucket + " from cpu where " +
                                        Range(w) + " group by " + bucket + ",hostname";
    return Make(label, Rfc3339Seconds(w.start), sql);
  }

  Result<GeneratedQuery> HighCpu(uint64_t hosts) {
    // Influx/Greptime builders: window first, then the host.
    GNOMON_ASSIGN_OR_RETURN(Window w, RandWindow(12 * kNanosPerHour));
    std::string filter, label;
    if (hosts > 0) {
      GNOMON_ASSIGN_OR_RETURN(std::vector<std::string> hs, RandHosts(hosts));
      filter = "and " + HostFilter(hs);
      label = "Influx CPU over threshold, " + std::to_string(hosts) + " host(s)";
    } else {
      label = "Influx CPU over threshold, all hosts";
    }
    std::string sql = "SELECT * from cpu where usage_user > 90.0 " + filter + " and " + Range(w);
    return Make(label, Rfc3339Seconds(w.start), sql);
  }

  Result<GeneratedQuery> Lastpoint() {
    if (c_.influxql) return Make("Influx last row per host", "cpu", "SELECT * from cpu group by \"hostname\" order by time desc limit 1");
    std::string sql = "select ";
    for (int i = 0; i < 20; ++i) {
      if (i > 0) sql += ", ";
      sql += std::string("last_value(") + (i < 10 ? kTags[i] : kMetrics[i - 10]) + " order by " +
             t_ + ")";
    }
    sql += " from cpu group by hostname";
    return Make("Influx last row per host", "cpu", sql);
  }

  Result<GeneratedQuery> GroupbyOrderbyLimit() {
    GNOMON_ASSIGN_OR_RETURN(Window w, RandWindow(kNanosPerHour));
    const std::string bucket = "date_trunc('minute', " + t_ + ")";
    if (c_.influxql) {  // TSBS's Influx text: without ORDER BY it asks for the earliest buckets (spec 7.6)
      return Make("Influx max cpu over last 5 min-intervals (random end)", Rfc3339Seconds(w.start),
                  "SELECT max(usage_user) from cpu WHERE time < '" + Rfc3339Seconds(w.end) + "' group by time(1m) limit 5");
    }
    std::string sql = "SELECT max(usage_user), " + bucket + " from cpu WHERE " + t_ + " < '" +
                      Rfc3339Seconds(w.end) + "' group by " + bucket + " order by " + bucket +
                      " desc limit 5";
    return Make("Influx max cpu over last 5 min-intervals (random end)", Rfc3339Seconds(w.start), sql);
  }

  Result<GeneratedQuery> One(const std::string& type) {
    int m = 0, h = 0, t = 0;
    char tail = 0;
    if (std::sscanf(type.c_str(), "single-groupby-%d-%d-%d%c", &m, &h, &t, &tail) == 3) {
      if ((m == 1 || m == 5) && (h == 1 || h == 8) && (t == 1 || t == 12)) {
        return SingleGroupby(m, static_cast<uint64_t>(h), t);
      }
    }
    if (type == "cpu-max-all-1") return MaxAllCpu(1, 8);
    if (type == "cpu-max-all-8") return MaxAllCpu(8, 8);
    if (type == "cpu-max-all-32-24") return MaxAllCpu(32, 24);
    if (type == "double-groupby-1") return DoubleGroupby(1);
    if (type == "double-groupby-5") return DoubleGroupby(5);
    if (type == "double-groupby-all") return DoubleGroupby(10);
    if (type == "high-cpu-1") return HighCpu(1);
    if (type == "high-cpu-all") return HighCpu(0);
    if (type == "lastpoint") return Lastpoint();
    if (type == "groupby-orderby-limit") return GroupbyOrderbyLimit();
    return Status::InvalidArgument("unknown devops query type '" + type + "'");
  }

 private:
  static GeneratedQuery Make(std::string label, const std::string& when, std::string sql) {
    GeneratedQuery q;
    q.description = label + ": " + when;
    q.label = std::move(label);
    q.sql = std::move(sql);
    return q;
  }

  const QueryGenConfig& c_;
  GoRand* rng_;
  std::string t_;
};

}  // namespace

const std::vector<std::string>& DevopsQueryTypes() {
  static const std::vector<std::string> kTypes = {
      "cpu-max-all-1",        "cpu-max-all-8",        "cpu-max-all-32-24",
      "double-groupby-1",     "double-groupby-5",     "double-groupby-all",
      "groupby-orderby-limit", "high-cpu-1",          "high-cpu-all",
      "lastpoint",            "single-groupby-1-1-1", "single-groupby-1-1-12",
      "single-groupby-1-8-1", "single-groupby-5-1-1", "single-groupby-5-1-12",
      "single-groupby-5-8-1"};
  return kTypes;
}

Result<std::vector<GeneratedQuery>> GenerateQueries(const QueryGenConfig& config) {
  if (config.scale == 0) return Status::InvalidArgument("scale must be > 0");
  if (config.time_column.empty()) return Status::InvalidArgument("empty time column name");
  int64_t seed = config.seed;
  if (seed == 0) seed = NowNanos() % kNanosPerSecond;
  GoRand rng(seed);  // TSBS seeds after building the query builder, which draws nothing
  Builder builder(config, &rng);
  std::vector<GeneratedQuery> out;
  out.reserve(config.queries);
  for (uint64_t i = 0; i < config.queries; ++i) {
    GNOMON_ASSIGN_OR_RETURN(GeneratedQuery q, builder.One(config.query_type));
    out.push_back(std::move(q));
  }
  return out;
}

std::string FormatQueries(const std::vector<GeneratedQuery>& queries) {
  std::string s;
  for (size_t i = 0; i < queries.size(); ++i) {
    s += "-- query: " + std::to_string(i + 1) + "\n-- label: " + queries[i].label +
         "\n-- description: " + queries[i].description + "\n" + queries[i].sql + "\n\n";
  }
  return s;
}

}  // namespace gnomon::bench
