// The text of each TSBS IoT query, given its random choices: TSBS's InfluxQL (influx builder,
// cmd/tsbs_generate_queries/databases/influx/iot.go, reproduced byte for byte) and Gnomon SQL.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace gnomon::bench {

struct IotQueryChoices {
  std::string fleet;                // last-loc, low-fuel, high-load, stationary, long-*
  std::vector<std::string> trucks;  // single-last-loc
  int64_t window_start = 0;         // stationary-trucks, long-* (ns)
  int64_t window_end = 0;
  int64_t range_start = 0;          // the generator's whole [start, end] (whole-range types)
  int64_t range_end = 0;
};

std::string IotInfluxQl(const std::string& type, const IotQueryChoices& c);
// `t`: the time column's name.
std::string IotSql(const std::string& type, const IotQueryChoices& c, const std::string& t);

// TimescaleDB's bound literal: Go's "2006-01-02 15:04:05.999999 -0700" in UTC (microseconds,
// truncated; trailing zeros of the fraction and a zero fraction dropped).
std::string TimescaleTime(int64_t ns);

}  // namespace gnomon::bench
