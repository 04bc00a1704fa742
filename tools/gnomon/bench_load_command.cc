// `gnomon bench load`: TSBS's Influx-protocol loader against a Gnomon (or any InfluxDB-compatible)
// server. Output follows tsbs_load_influx: periodic CSV report and final summary on stdout.
#include <unistd.h>

#include <cstdio>
#include <memory>
#include <string>

#include "src/bench/input_source.h"
#include "src/bench/loader.h"
#include "src/bench/time_parse.h"
#include "src/port/env.h"
#include "tools/gnomon/bench_driver_commands.h"
#include "tools/gnomon/commands.h"

namespace gnomon::tools {
namespace {

struct LoadFlags {
  bench::LoadConfig config;
  std::string file;
  std::string reporting_period = "10s";
  std::string json;
  bool no_progress = false;
};

Status RunLoadCommand(LoadFlags& f) {
  bench::LoadConfig& config = f.config;
  GNOMON_ASSIGN_OR_RETURN(int64_t period_ns, bench::ParseGoDuration(f.reporting_period));
  config.reporting_period_s = static_cast<double>(period_ns) / 1e9;
  config.report_out = stdout;
  config.log_out = stderr;
  config.progress_out = (!f.no_progress && ::isatty(STDERR_FILENO)) ? stderr : nullptr;
  GNOMON_RETURN_IF_ERROR(bench::ValidateLoadConfig(config));
  GNOMON_ASSIGN_OR_RETURN(std::unique_ptr<bench::ByteSource> source, bench::OpenByteSource(f.file));
  GNOMON_ASSIGN_OR_RETURN(bench::LoadStats stats, bench::RunLoad(config, source.get()));
  std::fputs(bench::FormatLoadSummary(stats).c_str(), stdout);
  std::fflush(stdout);
  if (!f.json.empty()) {
    GNOMON_RETURN_IF_ERROR(port::WriteFileAtomic(port::Env::Default(), f.json,
                                                 bench::LoadStatsToJson(config, stats, f.file)));
  }
  return Status::OK();
}

}  // namespace

void RegisterBenchLoadCommand(CLI::App* bench) {
  auto flags = std::make_shared<LoadFlags>();
  bench::LoadConfig& c = flags->config;
  auto* cmd = bench->add_subcommand(
      "load", "Load line protocol over HTTP like tsbs_load_influx (batches, workers, keep-alive)");
  cmd->add_option("--url,--urls", c.url, "Server base URL")->capture_default_str();
  cmd->add_option("--db,--db-name", c.db, "Database name")->capture_default_str();
  cmd->add_option("--file", flags->file, "Line protocol file (.gz/.xz by extension) or - for stdin")
      ->required();
  cmd->add_option("--workers", c.workers, "Concurrent writers, one connection each")->capture_default_str();
  cmd->add_option("--batch-size", c.batch_size, "Lines per request")->capture_default_str();
  cmd->add_flag("--gzip", c.gzip, "Gzip request bodies (Content-Encoding: gzip)");
  cmd->add_option("--gzip-level", c.gzip_level, "libdeflate level 1..12")->capture_default_str();
  cmd->add_option("--endpoint", c.endpoint,
                  "v1: POST /write?db=; v2: /api/v2/write?bucket=; v3: /api/v3/write_lp?db=")
      ->capture_default_str();
  cmd->add_flag("--no-sync", c.no_sync, "v3 only: acknowledge writes before the WAL fsync");
  cmd->add_flag("--create-db", c.create_db, "CREATE DATABASE when SHOW DATABASES lacks it");
  cmd->add_option("--reporting-period", flags->reporting_period,
                  "Period of the CSV progress report on stdout (Go duration; 0s = none)")
      ->capture_default_str();
  cmd->add_flag("--no-progress", flags->no_progress, "No progress bar even on a terminal");
  cmd->add_option("--json,--results-file", flags->json, "Write the figures as JSON to this file");
  cmd->callback([flags] {
    Status s = RunLoadCommand(*flags);
    if (!s.ok()) {
      std::fflush(stdout);
      std::fprintf(stderr, "gnomon bench load: %s\n", s.ToString().c_str());
      SetExitCode(1);
    }
  });
}

}  // namespace gnomon::tools
