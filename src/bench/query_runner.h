// `gnomon bench run-queries`: TSBS's query runner (spec section 9) against Gnomon's SQL endpoint,
// or its InfluxQL one. `workers` closed loops, each with one kept-alive connection, take the file's
// queries in order; their connections run on one event loop per core (AsyncHttpClient), as TSBS's
// goroutines run on Go's network poller. Each query is sent as `POST /v1/sql?db=NAME` with form
// body `sql=<urlencoded>` (InfluxQL: `POST /query?db=NAME`, body `q=<urlencoded>`, as TSBS's Influx
// runner sends it); its latency runs from just before the request is sent until the last byte of
// the answer is read. A non-2xx answer aborts the run.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "src/base/result.h"
#include "src/bench/query_file.h"
#include "src/bench/stats.h"

namespace gnomon::bench {

enum class QueryLanguage : uint8_t { kSql, kInfluxql };

struct QueryRunConfig {
  std::string url = "http://127.0.0.1:4000";
  QueryLanguage language = QueryLanguage::kSql;
  std::string db = "benchmark";
  int workers = 1;
  uint64_t burn_in = 0;        // the first results to reach the statistics are not measured
  uint64_t max_queries = 0;    // queries to run, burn-in included; 0 = the whole file
  uint64_t print_interval = 100;  // interim statistics every N measured queries; 0 = never
  std::FILE* interval_out = nullptr;   // interim statistics (TSBS: stderr); nullptr = none
  std::FILE* responses_out = nullptr;  // --print-responses: every answer body; nullptr = none
};

struct QueryRunResult {
  StatGroups groups;
  uint64_t measured = 0;        // results in the statistics
  uint64_t received = 0;        // all results, burn-in included
  uint64_t response_bytes = 0;
  double wall_s = 0;            // reader start to the last result
  int64_t start_unix_ns = 0;
  int64_t end_unix_ns = 0;
};

Status ValidateQueryRunConfig(const QueryRunConfig& config);

// "/v1/sql?db=NAME" and the form body "sql=<urlencoded>"; for InfluxQL "/query?db=NAME" and
// "q=<urlencoded>".
std::string SqlTarget(const std::string& db);
std::string SqlRequestBody(std::string_view sql);
std::string QueryTarget(QueryLanguage language, const std::string& db);
std::string QueryRequestBody(QueryLanguage language, std::string_view text);

Result<QueryRunResult> RunQueries(const QueryRunConfig& config,
                                  const std::vector<QueryRecord>& queries);

// TSBS's final block ("Run complete after N queries with W workers (Overall query rate R
// queries/sec):", the groups, "wall clock time: S sec"), then one extra line per group with p90,
// p99 and queries/s.
std::string FormatRunSummary(const QueryRunConfig& config, const QueryRunResult& result);

// TSBS's results JSON (Totals: overallQueryRates, overallQuantiles, overallStats) plus "Groups":
// every figure per label, raw label included.
std::string QueryRunToJson(const QueryRunConfig& config, const QueryRunResult& result,
                           const std::string& file);

}  // namespace gnomon::bench
