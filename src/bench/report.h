// `gnomon bench report`: one summary of a benchmark cycle from the loader's and the query runner's
// JSON results: environment, settings, ingest rates, bytes per metric, the query latency table
// (Markdown and JSON), and a hand-written SVG bar chart of mean latency per query type.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "src/base/result.h"
#include "src/base/json_value.h"
#include "src/bench/stats.h"

namespace gnomon::bench {

struct ReportEnvironment {
  std::string cpu_model;   // /proc/cpuinfo "model name"
  int cores = 0;           // online logical CPUs
  uint64_t memory_bytes = 0;  // /proc/meminfo MemTotal
  std::string kernel;      // uname -sr
  std::string hostname;
  std::string gnomon_version;
  std::string generated_at;  // RFC 3339, UTC
};

ReportEnvironment CollectEnvironment(const std::string& gnomon_version);

struct LoadFigures {
  uint64_t rows = 0;
  uint64_t metrics = 0;
  double elapsed_s = 0;
  double row_rate = 0;
  double metric_rate = 0;
  int workers = 0;
  uint64_t batch_size = 0;
  bool gzip = false;
  std::string endpoint;
  std::string file;
};

struct QueryFigures {
  std::string name;   // the query type: the results file's stem ("single-groupby-1-1-1")
  std::string label;  // TSBS's human label
  LatencySummary latency;
  double queries_per_second = 0;
};

// What a run measured of the server process itself (`gnomon bench profile`); negative: not
// measured.
struct ServerFigures {
  double load_cpu_s = -1;         // user + system CPU of the server during the timed load
  uint64_t load_peak_rss = 0;     // VmHWM at the end of the load, bytes
  uint64_t peak_rss = 0;          // VmHWM at the clean stop (queries and compaction included)
  double compact_s = -1;          // POST /v1/admin/compact (a flush, then every merge)
  double stop_s = -1;             // SIGTERM to exit (a clean stop flushes)
  double restart_s = -1;          // process start to the first answered /ping after that stop
};

struct ReportInput {
  ReportEnvironment env;
  std::optional<LoadFigures> load;
  std::vector<QueryFigures> queries;
  uint64_t storage_bytes = 0;  // 0: not measured
  uint64_t storage_metrics = 0;  // metrics the storage holds; 0: the load's metric count
  std::vector<std::pair<std::string, std::string>> settings;  // extra key/value lines (scale, ...)
  std::optional<ServerFigures> server;
};

// From `gnomon bench load --json` output.
Result<LoadFigures> LoadFiguresFromJson(const JsonValue& doc);
// From `gnomon bench run-queries --json` output: one entry per label (not "all queries").
Result<std::vector<QueryFigures>> QueryFiguresFromJson(const JsonValue& doc, const std::string& name);

std::string RenderReportMarkdown(const ReportInput& input, const std::string& chart_file);
std::string RenderReportJson(const ReportInput& input);
// Horizontal bars, one per query type, length proportional to the mean latency.
std::string RenderLatencyChartSvg(const std::vector<QueryFigures>& queries);

// Writes OUT/summary.md, OUT/summary.json and OUT/latency.svg (creating OUT).
Status WriteReport(const ReportInput& input, const std::string& out_dir);

}  // namespace gnomon::bench
