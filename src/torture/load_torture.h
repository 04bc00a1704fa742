// `gnomon torture load`: the real server under sustained mixed load. Writers send TSBS cpu rows
// (host_0 .. host_{hosts-1}, ten fields, times moving forward) as fast as the server takes them,
// query clients run every TSBS devops query type in turn, and every few queries a count(*) is
// checked against the writers' own tallies (at least what was acknowledged before the query
// began, at most what had been sent when it answered). Checked: zero failed requests, no write
// slower than the stall bound, the server's peak RSS; reported per interval: write and query
// latency percentiles and throughput.
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "src/base/result.h"

namespace gnomon::torture {

struct LoadTortureOptions {
  std::string gnomon_binary;
  std::string data_dir;  // created; left behind for inspection
  std::chrono::seconds duration{600};
  std::chrono::seconds interval{10};  // one report row per interval
  int writers = 4;
  int query_clients = 2;
  int hosts = 1000;
  int rows_per_request = 1000;
  uint64_t seed = 1;
  std::chrono::milliseconds max_write_stall{1000};  // a write slower than this is a violation
  std::vector<std::string> server_args;
  std::FILE* log = stderr;  // one line per interval; nullptr = quiet
};

// Latency percentiles of one kind of request within one interval, in milliseconds.
struct LatencySummary {
  uint64_t count = 0;
  double p50 = 0, p99 = 0, max = 0;
};

struct LoadInterval {
  double end_s = 0;    // since the load began
  double seconds = 0;  // the interval's length
  uint64_t rows_written = 0;
  LatencySummary writes;
  LatencySummary queries;
  uint64_t rss_bytes = 0;
};

struct LoadTortureReport {
  std::vector<LoadInterval> intervals;
  uint64_t rows_acknowledged = 0;
  uint64_t write_requests = 0;
  uint64_t queries = 0;
  uint64_t count_checks = 0;
  uint64_t peak_rss_bytes = 0;  // the server's VmHWM at the end
  double longest_write_ms = 0;
  std::vector<std::string> violations;  // failed requests, wrong counts, stalls
};

Result<LoadTortureReport> RunLoadTorture(const LoadTortureOptions& options);

// Per interval a table row, then the totals.
std::string FormatLoadReport(const LoadTortureReport& report);
// The intervals as CSV (end_s, rows/s, write p50/p99/max ms, queries/s, query p50/p99/max ms, RSS MiB).
std::string LoadReportCsv(const LoadTortureReport& report);
// The intervals as an SVG chart: write and query latency (p50, p99, max), throughput, RSS.
std::string LoadReportSvg(const LoadTortureReport& report);

}  // namespace gnomon::torture
