// `gnomon bench run-queries`: TSBS's query runner against /v1/sql (or /query with --influxql). Output follows
// tsbs_run_queries_*: interim statistics on stderr, the final block on stdout.
#include <cstdio>
#include <memory>
#include <string>

#include "src/bench/query_file.h"
#include "src/bench/query_runner.h"
#include "src/port/env.h"
#include "tools/gnomon/bench_driver_commands.h"
#include "tools/gnomon/commands.h"

namespace gnomon::tools {
namespace {

struct RunFlags {
  bench::QueryRunConfig config;
  std::string file;
  std::string json;
  bool print_responses = false;
};

Status RunQueriesCommand(RunFlags& f) {
  bench::QueryRunConfig& config = f.config;
  config.interval_out = stderr;
  config.responses_out = f.print_responses ? stdout : nullptr;
  GNOMON_RETURN_IF_ERROR(bench::ValidateQueryRunConfig(config));
  GNOMON_ASSIGN_OR_RETURN(std::vector<bench::QueryRecord> queries, bench::ReadQueryFile(f.file));
  if (queries.empty()) return Status::InvalidArgument(f.file + ": no queries");
  GNOMON_ASSIGN_OR_RETURN(bench::QueryRunResult result, bench::RunQueries(config, queries));
  std::fputs(bench::FormatRunSummary(config, result).c_str(), stdout);
  std::fflush(stdout);
  if (!f.json.empty()) {
    GNOMON_RETURN_IF_ERROR(port::WriteFileAtomic(port::Env::Default(), f.json,
                                                 bench::QueryRunToJson(config, result, f.file)));
  }
  return Status::OK();
}

}  // namespace

void RegisterBenchRunQueriesCommand(CLI::App* bench) {
  auto flags = std::make_shared<RunFlags>();
  bench::QueryRunConfig& c = flags->config;
  auto* cmd = bench->add_subcommand(
      "run-queries", "Run a query file against /v1/sql like tsbs_run_queries (latency statistics)");
  cmd->add_option("--url,--urls", c.url, "Server base URL")->capture_default_str();
  cmd->add_option("--db,--db-name", c.db, "Database name")->capture_default_str();
  cmd->add_option("--file", flags->file, "Query file (gnomon bench generate-queries / TSBS text form)")
      ->required();
  cmd->add_option("--workers", c.workers, "Concurrent clients, one connection each")->capture_default_str();
  cmd->add_option("--burn-in", c.burn_in, "Results left out of the statistics")->capture_default_str();
  cmd->add_option("--max-queries", c.max_queries, "Queries to run, burn-in included; 0 = all")
      ->capture_default_str();
  cmd->add_option("--print-interval", c.print_interval, "Interim statistics every N queries; 0 = never")
      ->capture_default_str();
  cmd->add_flag("--print-responses", flags->print_responses, "Print every answer to stdout");
  cmd->add_flag_callback(
      "--influxql", [&c] { c.language = bench::QueryLanguage::kInfluxql; },
      "The file holds InfluxQL (TSBS's influx format): send each query to /query as q=...");
  cmd->add_option("--json,--results-file", flags->json, "Write the statistics as JSON to this file");
  cmd->callback([flags] {
    Status s = RunQueriesCommand(*flags);
    if (!s.ok()) {
      std::fflush(stdout);
      std::fprintf(stderr, "gnomon bench run-queries: %s\n", s.ToString().c_str());
      SetExitCode(1);
    }
  });
}

}  // namespace gnomon::tools
