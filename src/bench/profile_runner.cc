#include "src/bench/profile_runner.h"

#include <signal.h>
#include <sys/statvfs.h>

#include <chrono>
#include <filesystem>
#include <memory>

#include "src/bench/data_generator.h"
#include "src/bench/generated_source.h"
#include "src/bench/http_client.h"
#include "src/bench/input_source.h"
#include "src/base/json_value.h"
#include "src/bench/loader.h"
#include "src/bench/query_file.h"
#include "src/bench/query_generator.h"
#include "src/bench/query_runner.h"
#include "src/bench/server_process.h"
#include "src/bench/time_parse.h"
#include "src/port/env.h"

namespace gnomon::bench {
namespace {

constexpr int64_t kSeed = 123;
constexpr const char* kDb = "benchmark";

using Clock = std::chrono::steady_clock;
double SecondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

template <typename... Args>
void Log(const ProfileRunOptions& o, const char* format, Args... args) {
  if (o.log == nullptr) return;
  std::fprintf(o.log, "[profile] ");
  std::fprintf(o.log, format, args...);
  std::fputc('\n', o.log);
  std::fflush(o.log);
}

Result<DataGenConfig> GeneratorConfig(const Profile& p) {
  DataGenConfig c;
  c.use_case = p.use_case;
  c.scale = p.scale;
  c.seed = kSeed;
  GNOMON_ASSIGN_OR_RETURN(c.start_ns, ParseRfc3339Nanos(p.start));
  GNOMON_ASSIGN_OR_RETURN(c.end_ns, ParseRfc3339Nanos(p.end));
  GNOMON_ASSIGN_OR_RETURN(c.interval_ns, ParseGoDuration(p.log_interval));
  GNOMON_RETURN_IF_ERROR(ValidateDataGenConfig(c));
  return c;
}

uint64_t FreeBytes(const std::string& dir) {
  struct statvfs st {};
  if (statvfs(dir.c_str(), &st) != 0) return 0;
  return static_cast<uint64_t>(st.f_bavail) * st.f_frsize;
}

uint64_t TreeBytes(const std::string& dir) {
  uint64_t total = 0;
  std::error_code ec;
  for (auto it = std::filesystem::recursive_directory_iterator(dir, ec);
       !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
    if (it->is_regular_file(ec)) total += it->file_size(ec);
  }
  return total;
}

// The data file for this data set (named by everything that shapes its bytes), generated once:
// a marker file says a previous run finished writing it.
Result<std::string> PrepareDataFile(const Profile& p, const DataGenConfig& config,
                                    const ProfileRunOptions& o) {
  const std::string path = o.work_dir + "/" + p.use_case + "-s" + std::to_string(p.scale) + "-" +
                           p.start + "-" + p.end + "-" + p.log_interval + ".lp";
  const std::string done = path + ".complete";
  if (std::filesystem::exists(done) && std::filesystem::exists(path)) {
    Log(o, "reusing data file %s", path.c_str());
    return path;
  }
  Log(o, "generating %s (about %.1f GB)", path.c_str(), EstimatedDataBytes(p) / 1e9);
  GNOMON_ASSIGN_OR_RETURN(auto file, port::Env::Default()->NewWritableFile(path));
  GNOMON_ASSIGN_OR_RETURN(DataGenStats stats, GenerateData(config, file.get()));
  GNOMON_RETURN_IF_ERROR(file->Sync());
  GNOMON_RETURN_IF_ERROR(file->Close());
  GNOMON_RETURN_IF_ERROR(port::WriteFileAtomic(port::Env::Default(), done,
                                               std::to_string(stats.rows_written) + " rows\n"));
  return path;
}

// A data file made beforehand must hold the profile's time range: its first line's timestamp
// is checked (queries over a range the data does not hold would measure nothing).
Status CheckDataFile(const std::string& path, const DataGenConfig& config) {
  GNOMON_ASSIGN_OR_RETURN(auto source, OpenByteSource(path));
  std::string head;
  char buf[4096];
  while (head.find('\n') == std::string::npos && head.size() < (1 << 20)) {
    GNOMON_ASSIGN_OR_RETURN(size_t n, source->Read(buf, sizeof(buf)));
    if (n == 0) break;
    head.append(buf, n);
  }
  (void)source->Close();
  const std::string line = head.substr(0, head.find('\n'));
  const size_t space = line.rfind(' ');
  char* end = nullptr;
  const long long t = space == std::string::npos ? 0 : std::strtoll(line.c_str() + space + 1, &end, 10);
  if (space == std::string::npos || end == line.c_str() + space + 1 || t < config.start_ns ||
      t >= config.end_ns) {
    return Status::InvalidArgument(path + ": its first line's time (" + line.substr(space + 1) +
                                   ") is outside the profile's range; generate it with the " +
                                   "profile's flags, or pass --start/--end");
  }
  return Status::OK();
}

bool UseFile(const Profile& p, const ProfileRunOptions& o) {
  if (o.data_mode != DataMode::kAuto) return o.data_mode == DataMode::kFile;
  return EstimatedDataBytes(p) < FreeBytes(o.work_dir) / 2;
}

struct Phase {
  const Profile& profile;
  const ProfileRunOptions& options;
  ServerProcess* server;
  ProfileRunResult* result;
};

Status RunLoadPhase(const Phase& ph, const DataGenConfig& config, const std::string& data_file) {
  LoadConfig load;
  load.url = ph.server->url();
  load.db = kDb;
  load.workers = ph.profile.load_workers;
  load.batch_size = ph.profile.batch_size;
  load.create_db = true;
  load.reporting_period_s = 0;
  load.log_out = ph.options.log;
  std::unique_ptr<ByteSource> source;
  if (data_file.empty()) {
    source = NewGeneratedByteSource(config);
  } else {
    GNOMON_ASSIGN_OR_RETURN(source, OpenByteSource(data_file));
  }
  Log(ph.options, "loading with %d workers, %llu-line batches", load.workers,
      static_cast<unsigned long long>(load.batch_size));
  GNOMON_ASSIGN_OR_RETURN(const double cpu_before, ph.server->CpuSeconds());
  GNOMON_ASSIGN_OR_RETURN(LoadStats stats, RunLoad(load, source.get()));
  GNOMON_RETURN_IF_ERROR(source->Close());
  GNOMON_ASSIGN_OR_RETURN(const double cpu_after, ph.server->CpuSeconds());
  ServerFigures& server = *ph.result->report.server;
  server.load_cpu_s = cpu_after - cpu_before;
  GNOMON_ASSIGN_OR_RETURN(server.load_peak_rss, ph.server->PeakRssBytes());

  const std::string json = LoadStatsToJson(load, stats, data_file.empty() ? "(generated)" : data_file);
  GNOMON_RETURN_IF_ERROR(port::WriteFileAtomic(port::Env::Default(), ph.options.out_dir + "/load.json", json));
  GNOMON_ASSIGN_OR_RETURN(JsonValue doc, JsonValue::Parse(json));
  GNOMON_ASSIGN_OR_RETURN(ph.result->report.load, LoadFiguresFromJson(doc));
  Log(ph.options, "loaded %llu rows in %.1f s: %.0f rows/s, server %.2f us/row, peak RSS %.0f MB",
      static_cast<unsigned long long>(stats.totals.rows), stats.elapsed_s,
      stats.totals.rows / stats.elapsed_s, server.load_cpu_s / stats.totals.rows * 1e6,
      server.load_peak_rss / 1048576.0);
  return Status::OK();
}

// One query type: generated with TSBS's choices, run, its statistics added to the report.
Status RunQueryType(const Phase& ph, const std::string& type, const std::string& phase_name) {
  QueryGenConfig gen;
  gen.query_type = type;
  gen.scale = ph.profile.scale;
  gen.seed = kSeed;
  GNOMON_ASSIGN_OR_RETURN(gen.start_ns, ParseRfc3339Nanos(ph.profile.start));
  GNOMON_ASSIGN_OR_RETURN(gen.end_ns, ParseRfc3339Nanos(ph.profile.end));
  gen.end_ns += 1000000000;  // TSBS: data end + 1 s
  gen.queries = ph.profile.queries_per_type;
  auto generated = GenerateQueries(gen);
  if (!generated.ok()) {
    Log(ph.options, "skipping %s: %s", type.c_str(), generated.status().ToString().c_str());
    return Status::OK();
  }
  GNOMON_ASSIGN_OR_RETURN(std::vector<QueryRecord> queries, ParseQueryFile(FormatQueries(*generated)));
  QueryRunConfig run;
  run.url = ph.server->url();
  run.db = kDb;
  run.workers = ph.profile.query_workers;
  run.print_interval = 0;
  GNOMON_ASSIGN_OR_RETURN(QueryRunResult r, RunQueries(run, queries));
  const std::string json = QueryRunToJson(run, r, type);
  const std::string dir = ph.options.out_dir + "/queries-" + phase_name;
  GNOMON_RETURN_IF_ERROR(port::Env::Default()->CreateDirs(dir));
  GNOMON_RETURN_IF_ERROR(port::WriteFileAtomic(port::Env::Default(), dir + "/" + type + ".json", json));
  GNOMON_ASSIGN_OR_RETURN(JsonValue doc, JsonValue::Parse(json));
  GNOMON_ASSIGN_OR_RETURN(auto figures, QueryFiguresFromJson(doc, type + " (" + phase_name + ")"));
  for (const QueryFigures& f : figures) {
    Log(ph.options, "%s (%s): mean %.2f ms, p99 %.2f ms, %.0f queries/s", type.c_str(),
        phase_name.c_str(), f.latency.mean_ms, f.latency.p99_ms, f.queries_per_second);
  }
  auto& all = ph.result->report.queries;
  all.insert(all.end(), figures.begin(), figures.end());
  return Status::OK();
}

void RunQueryPhase(const Phase& ph, const std::string& phase_name) {
  for (const std::string& type : ph.profile.query_types) {
    Status s = RunQueryType(ph, type, phase_name);
    if (!s.ok()) {
      Log(ph.options, "FAILED %s (%s): %s", type.c_str(), phase_name.c_str(), s.ToString().c_str());
      ph.result->failed_query_types.push_back(type + " (" + phase_name + ")");
    }
  }
}

Status CompactNow(const Phase& ph) {
  GNOMON_ASSIGN_OR_RETURN(Url url, ParseUrl(ph.server->url()));
  HttpClient client(url);
  Log(ph.options, "flushing and compacting");
  const auto start = Clock::now();
  GNOMON_ASSIGN_OR_RETURN(HttpResponse r, client.Send({.method = "POST", .target = "/v1/admin/compact"}));
  GNOMON_RETURN_IF_ERROR(ExpectSuccess("POST /v1/admin/compact", r));
  ph.result->report.server->compact_s = SecondsSince(start);
  Log(ph.options, "compacted in %.1f s: %s", ph.result->report.server->compact_s, r.body.c_str());
  return Status::OK();
}

Status StopCleanly(ServerProcess* server) {
  GNOMON_ASSIGN_OR_RETURN(int code, server->Stop(SIGTERM, std::chrono::seconds(3600)));
  if (code != 0) return Status::Internal("server exited with status " + std::to_string(code));
  return Status::OK();
}

void AddSettings(const Profile& p, bool from_file, const ProfileRunOptions& o, ReportInput* report) {
  auto& s = report->settings;
  s.emplace_back("profile", p.name);
  s.emplace_back("origin", p.origin);
  s.emplace_back("use case", p.use_case);
  s.emplace_back("scale", std::to_string(p.scale));
  s.emplace_back("seed", std::to_string(kSeed));
  s.emplace_back("time range", p.start + " .. " + p.end + " (" + p.log_interval + " interval)");
  s.emplace_back("data", from_file ? "file generated before the load"
                                   : "generated during the load (its CPU counts against the load)");
  if (!p.query_types.empty()) {
    s.emplace_back("queries per type", std::to_string(p.queries_per_type) + " (" +
                                           std::to_string(p.query_workers) + " workers)");
  }
  std::string args;
  for (const std::string& a : o.server_args) args += (args.empty() ? "" : " ") + a;
  s.emplace_back("server flags", args.empty() ? "defaults" : args);
}

}  // namespace

Profile OverrideProfile(Profile p, const ProfileOverrides& o) {
  if (o.scale > 0) p.scale = o.scale;
  if (!o.start.empty()) p.start = o.start;
  if (!o.end.empty()) p.end = o.end;
  if (o.queries_per_type >= 0) p.queries_per_type = static_cast<uint64_t>(o.queries_per_type);
  if (p.queries_per_type == 0) p.query_types.clear();
  return p;
}

Result<ProfileRunResult> RunProfile(const Profile& p, const ProfileRunOptions& o) {
  GNOMON_ASSIGN_OR_RETURN(DataGenConfig config, GeneratorConfig(p));
  port::Env* env = port::Env::Default();
  GNOMON_RETURN_IF_ERROR(env->CreateDirs(o.work_dir));
  GNOMON_RETURN_IF_ERROR(env->CreateDirs(o.out_dir));
  ProfileRunResult result;
  result.report.env = CollectEnvironment(o.version);
  result.report.server = ServerFigures{};
  const bool from_file = !o.data_file.empty() || UseFile(p, o);
  AddSettings(p, from_file, o, &result.report);
  std::string data_file = o.data_file;
  if (from_file && data_file.empty()) {
    GNOMON_ASSIGN_OR_RETURN(data_file, PrepareDataFile(p, config, o));
  } else if (from_file) {
    GNOMON_RETURN_IF_ERROR(CheckDataFile(data_file, config));
  }

  const std::string data_dir = o.work_dir + "/data-" + p.name;
  std::error_code ec;
  std::filesystem::remove_all(data_dir, ec);
  ServerProcess server(o.gnomon_binary, data_dir, o.server_args);
  server.set_log_path(o.out_dir + "/server.log");
  GNOMON_RETURN_IF_ERROR(server.Start());
  Log(o, "server pid %d on %s, data in %s", static_cast<int>(server.pid()), server.url().c_str(),
      data_dir.c_str());
  const Phase ph{p, o, &server, &result};
  GNOMON_RETURN_IF_ERROR(RunLoadPhase(ph, config, data_file));
  if (!p.query_types.empty()) RunQueryPhase(ph, "fresh");
  GNOMON_RETURN_IF_ERROR(CompactNow(ph));
  if (!p.query_types.empty()) RunQueryPhase(ph, "compacted");

  ServerFigures& figures = *result.report.server;
  GNOMON_ASSIGN_OR_RETURN(figures.peak_rss, server.PeakRssBytes());
  const auto stop_start = Clock::now();
  GNOMON_RETURN_IF_ERROR(StopCleanly(&server));
  figures.stop_s = SecondsSince(stop_start);
  result.report.storage_bytes = TreeBytes(data_dir);
  Log(o, "clean stop in %.1f s; data directory %llu bytes", figures.stop_s,
      static_cast<unsigned long long>(result.report.storage_bytes));

  const auto restart_start = Clock::now();
  GNOMON_RETURN_IF_ERROR(server.Start(std::chrono::seconds(3600)));
  figures.restart_s = SecondsSince(restart_start);
  Log(o, "restarted and serving in %.1f s", figures.restart_s);
  GNOMON_RETURN_IF_ERROR(StopCleanly(&server));
  if (!o.keep_data_dir) std::filesystem::remove_all(data_dir, ec);

  GNOMON_RETURN_IF_ERROR(WriteReport(result.report, o.out_dir));
  return result;
}

}  // namespace gnomon::bench
