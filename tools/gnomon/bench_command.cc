// `gnomon bench ...`: the TSBS-compatible benchmark tools. generate-data writes the same bytes as
// tsbs_generate_data --format=influx for the same flags.
#include <fcntl.h>

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "src/bench/data_generator.h"
#include "src/bench/output_file.h"
#include "src/bench/iot_query_generator.h"
#include "src/bench/query_generator.h"
#include "src/bench/time_parse.h"
#include "src/port/env.h"
#include "tools/gnomon/bench_driver_commands.h"
#include "tools/gnomon/commands.h"

namespace gnomon::tools {
namespace {

struct GenerateDataFlags {
  std::string use_case;
  uint64_t scale = 1;
  int64_t seed = 0;
  std::string timestamp_start = "2016-01-01T00:00:00Z";
  std::string timestamp_end = "2016-01-02T00:00:00Z";
  std::string log_interval = "10s";
  uint64_t initial_scale = 0;
  uint64_t max_data_points = 0;
  uint64_t group_id = 0;
  uint64_t groups = 1;
  std::string format = "influx";
  bool gzip = false;
  std::string out;
};

Status RunGenerateData(const GenerateDataFlags& f) {
  if (f.format != "influx") {
    return Status::Unsupported("format '" + f.format + "' (only influx is implemented)");
  }
  bench::DataGenConfig config;
  config.use_case = f.use_case;
  config.scale = f.scale;
  config.seed = f.seed;
  GNOMON_ASSIGN_OR_RETURN(config.start_ns, bench::ParseRfc3339Nanos(f.timestamp_start));
  GNOMON_ASSIGN_OR_RETURN(config.end_ns, bench::ParseRfc3339Nanos(f.timestamp_end));
  GNOMON_ASSIGN_OR_RETURN(config.interval_ns, bench::ParseGoDuration(f.log_interval));
  config.initial_scale = f.initial_scale;
  config.max_data_points = f.max_data_points;
  config.interleaved_group_id = f.group_id;
  config.interleaved_groups = f.groups;
  GNOMON_RETURN_IF_ERROR(bench::ValidateDataGenConfig(config));

  std::unique_ptr<port::WritableFile> file;
  if (f.out.empty() || f.out == "-") {
    file = bench::NewFdWritableFile(1);
  } else {
    GNOMON_ASSIGN_OR_RETURN(file, port::Env::Default()->NewWritableFile(f.out));
  }
  if (f.gzip) file = bench::NewGzipWritableFile(std::move(file));
  GNOMON_ASSIGN_OR_RETURN(bench::DataGenStats stats, bench::GenerateData(config, file.get()));
  GNOMON_RETURN_IF_ERROR(file->Close());
  std::fprintf(stderr, "Generated %llu rows (%llu bytes before compression).\n",
               static_cast<unsigned long long>(stats.rows_written),
               static_cast<unsigned long long>(stats.bytes_written));
  return Status::OK();
}

void RegisterGenerateData(CLI::App* bench) {
  auto flags = std::make_shared<GenerateDataFlags>();
  auto* cmd = bench->add_subcommand(
      "generate-data", "Generate TSBS data (byte-identical to tsbs_generate_data --format=influx)");
  cmd->add_option("--use-case", flags->use_case, "cpu-only, cpu-single, devops or iot")->required();
  cmd->add_option("--scale", flags->scale, "Number of hosts (devops) or trucks (iot)");
  cmd->add_option("--seed", flags->seed, "PRNG seed; 0 = time-based");
  cmd->add_option("--timestamp-start", flags->timestamp_start, "RFC 3339 start");
  cmd->add_option("--timestamp-end", flags->timestamp_end, "RFC 3339 end (exclusive)");
  cmd->add_option("--log-interval", flags->log_interval, "Time between readings (Go duration)");
  cmd->add_option("--initial-scale", flags->initial_scale, "Hosts in the first epoch; 0 = scale");
  cmd->add_option("--max-data-points", flags->max_data_points, "Point limit; 0 = unlimited");
  cmd->add_option("--interleaved-generation-group-id", flags->group_id, "This process's group");
  cmd->add_option("--interleaved-generation-groups", flags->groups, "Number of groups");
  cmd->add_option("--format", flags->format, "Output format (influx)");
  cmd->add_flag("--gzip", flags->gzip, "Gzip the output");
  cmd->add_option("--out,--file", flags->out, "Output file (default: stdout)");
  cmd->callback([flags] {
    Status s = RunGenerateData(*flags);
    if (!s.ok()) {
      std::fprintf(stderr, "gnomon bench generate-data: %s\n", s.ToString().c_str());
      SetExitCode(1);
    }
  });
}

struct GenerateQueriesFlags {
  std::string use_case = "devops";
  std::string query_type;
  uint64_t scale = 1;
  int64_t seed = 0;
  std::string timestamp_start = "2016-01-01T00:00:00Z";
  std::string timestamp_end = "2016-01-02T00:00:00Z";
  uint64_t queries = 1000;
  std::string time_column = "time";
  std::string format = "sql";
  std::string out;
};

Status RunGenerateQueries(const GenerateQueriesFlags& f) {
  if (f.use_case != "devops" && f.use_case != "cpu-only" && f.use_case != "iot") {
    return Status::InvalidArgument("use case '" + f.use_case + "': devops, cpu-only or iot");
  }
  if (f.format != "sql" && f.format != "influx") {
    return Status::InvalidArgument("format '" + f.format + "': sql (Gnomon SQL) or influx (TSBS's InfluxQL)");
  }
  bench::QueryGenConfig config;
  config.query_type = f.query_type;
  config.scale = f.scale;
  config.seed = f.seed;
  config.queries = f.queries;
  config.time_column = f.time_column;
  config.influxql = f.format == "influx";
  GNOMON_ASSIGN_OR_RETURN(config.start_ns, bench::ParseRfc3339Nanos(f.timestamp_start));
  GNOMON_ASSIGN_OR_RETURN(config.end_ns, bench::ParseRfc3339Nanos(f.timestamp_end));
  std::vector<bench::GeneratedQuery> queries;
  if (f.use_case == "iot") {
    const auto format = f.format == "influx" ? bench::IotQueryFormat::kInflux : bench::IotQueryFormat::kSql;
    GNOMON_ASSIGN_OR_RETURN(queries, bench::GenerateIotQueries(config, format));
  } else {
    GNOMON_ASSIGN_OR_RETURN(queries, bench::GenerateQueries(config));
  }
  std::unique_ptr<port::WritableFile> file;
  if (f.out.empty() || f.out == "-") {
    file = bench::NewFdWritableFile(1);
  } else {
    GNOMON_ASSIGN_OR_RETURN(file, port::Env::Default()->NewWritableFile(f.out));
  }
  GNOMON_RETURN_IF_ERROR(file->Append(bench::FormatQueries(queries)));
  GNOMON_RETURN_IF_ERROR(file->Close());
  if (!queries.empty()) {
    std::fprintf(stderr, "%s: %zu points\n", queries[0].label.c_str(), queries.size());
  }
  return Status::OK();
}

void RegisterGenerateQueries(CLI::App* bench) {
  auto flags = std::make_shared<GenerateQueriesFlags>();
  auto* cmd = bench->add_subcommand(
      "generate-queries", "Generate TSBS devops or IoT queries (TSBS's random choices)");
  cmd->add_option("--use-case", flags->use_case, "devops, cpu-only (same query matrix) or iot");
  cmd->add_option("--query-type", flags->query_type, "e.g. single-groupby-1-1-1, lastpoint, stationary-trucks")
      ->required();
  cmd->add_option("--scale", flags->scale, "Number of hosts in the data");
  cmd->add_option("--seed", flags->seed, "PRNG seed; 0 = time-based");
  cmd->add_option("--timestamp-start", flags->timestamp_start, "RFC 3339 start");
  cmd->add_option("--timestamp-end", flags->timestamp_end, "RFC 3339 end (data end + 1s)");
  cmd->add_option("--queries", flags->queries, "Number of queries");
  cmd->add_option("--time-column", flags->time_column, "Time column name (greptime_timestamp for Greptime)");
  cmd->add_option("--format", flags->format, "sql (Gnomon SQL) or influx (TSBS's InfluxQL text)");
  cmd->add_option("--out,--file", flags->out, "Output file (default: stdout)");
  cmd->callback([flags] {
    Status s = RunGenerateQueries(*flags);
    if (!s.ok()) {
      std::fprintf(stderr, "gnomon bench generate-queries: %s\n", s.ToString().c_str());
      SetExitCode(1);
    }
  });
}

}  // namespace

void RegisterBenchCommand(CLI::App& app) {
  auto* bench = app.add_subcommand("bench", "TSBS-compatible benchmark tools");
  bench->require_subcommand(1);
  RegisterGenerateData(bench);
  RegisterGenerateQueries(bench);
  RegisterBenchLoadCommand(bench);
  RegisterBenchRunQueriesCommand(bench);
  RegisterBenchReportCommand(bench);
  RegisterBenchProfileCommand(bench);
}

}  // namespace gnomon::tools
