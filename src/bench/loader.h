// `gnomon bench load`: TSBS's Influx-protocol loader (spec section 8). One scanner (the calling
// thread) cuts the input into batches of whole lines; `workers` threads, each with one kept-alive
// HTTP connection, take batches from a shared queue of capacity `workers` and POST them; counts are
// added after a batch is acknowledged (2xx). Any other answer aborts the load with its status and
// body. The timed region runs from the first read to the last acknowledged batch.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "src/base/result.h"
#include "src/bench/input_source.h"
#include "src/bench/line_batcher.h"

namespace gnomon::bench {

struct LoadConfig {
  std::string url = "http://127.0.0.1:4000";
  std::string db = "benchmark";
  std::string endpoint = "v1";   // v1: POST /write?db=; v2: /api/v2/write?bucket=; v3: /api/v3/write_lp?db=
  int workers = 4;
  uint64_t batch_size = 10000;   // rows (lines) per request
  bool gzip = false;             // Content-Encoding: gzip bodies (libdeflate)
  int gzip_level = 1;            // libdeflate 1..12; 1 keeps the loader far ahead of the server
  bool no_sync = false;          // v3 only: no_sync=true (acknowledge before the WAL fsync)
  bool create_db = false;        // CREATE DATABASE when SHOW DATABASES lacks it
  bool check_db = true;          // ask SHOW DATABASES first (as tsbs_load_influx does)
  double reporting_period_s = 10;  // TSBS's periodic CSV report; 0 = none
  std::FILE* report_out = nullptr;    // where the periodic report goes (TSBS: stdout); nullptr = none
  std::FILE* progress_out = nullptr;  // one-line progress bar (a terminal); nullptr = none
  std::FILE* log_out = nullptr;       // notes such as "created database"; nullptr = none
};

struct WorkerLoadStats {
  uint64_t rows = 0;
  uint64_t metrics = 0;
  uint64_t batches = 0;
  uint64_t body_bytes = 0;  // bytes on the wire (after gzip)
  uint64_t connects = 0;
  double busy_s = 0;        // time inside requests (including compression)
};

struct LoadStats {
  LineCounts totals;  // acknowledged rows and metrics
  uint64_t batches = 0;
  uint64_t bytes_read = 0;  // line-protocol bytes (uncompressed)
  double elapsed_s = 0;     // the timed region
  int64_t start_unix_ns = 0;
  int64_t end_unix_ns = 0;
  std::vector<WorkerLoadStats> workers;
};

Status ValidateLoadConfig(const LoadConfig& config);

// The request target of one write, e.g. "/write?db=benchmark".
std::string WriteTarget(const LoadConfig& config);

// Asks SHOW DATABASES and, when the database is missing and config.create_db, creates it.
Status PrepareDatabase(const LoadConfig& config);

// Runs the whole load from `source` (PrepareDatabase first when config.check_db).
Result<LoadStats> RunLoad(const LoadConfig& config, ByteSource* source);

// TSBS's final block: "\nSummary:\nloaded N metrics in X.XXXsec with W workers (mean rate ...)\n"
// and the rows line, then one line per worker.
std::string FormatLoadSummary(const LoadStats& stats);

// TSBS-style results JSON (ResultFormatVersion, RunnerConfig, StartTime, EndTime, DurationMillis,
// Totals {metricRate, rowRate, metricCount, rowCount}) plus per-worker figures.
std::string LoadStatsToJson(const LoadConfig& config, const LoadStats& stats,
                            const std::string& file);

}  // namespace gnomon::bench
