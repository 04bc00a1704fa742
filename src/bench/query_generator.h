// `gnomon bench generate-queries`: the 15 (+1) TSBS devops query types (spec sections 6-7) in Gnomon
// SQL, with exactly TSBS's random choices (seed, window draws, host draws; Appendix A.3). The SQL is
// the GreptimeDB builder's text with the time column renamed (`time` for Gnomon); with `influxql`
// the text is TSBS's Influx builder's, byte for byte, for the same draws.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "src/base/result.h"
#include "src/port/env.h"

namespace gnomon::bench {

struct QueryGenConfig {
  std::string query_type;  // e.g. single-groupby-1-1-1, cpu-max-all-8, double-groupby-all, lastpoint
  uint64_t scale = 1;      // hosts: host_0 .. host_{scale-1}
  int64_t seed = 0;        // 0: time-based
  int64_t start_ns = 0;    // windows are drawn from [start, end)
  int64_t end_ns = 0;
  uint64_t queries = 1000;
  std::string time_column = "time";
  bool influxql = false;  // TSBS's Influx builder text instead of SQL (time_column unused)
};

struct GeneratedQuery {
  std::string label;        // TSBS's human label (the runner's statistics key)
  std::string description;  // label + ": " + window start (debug only)
  std::string sql;  // or InfluxQL
};

// All devops query types, in TSBS's registration order.
const std::vector<std::string>& DevopsQueryTypes();

Result<std::vector<GeneratedQuery>> GenerateQueries(const QueryGenConfig& config);

// One block per query: "-- query: n", "-- label: ...", "-- description: ...", the SQL, a blank line.
std::string FormatQueries(const std::vector<GeneratedQuery>& queries);

}  // namespace gnomon::bench
