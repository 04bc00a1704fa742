// `gnomon bench profile list` and `gnomon bench profile run NAME`: the reports' workloads, one
// command each (src/bench/profiles.h, src/bench/profile_runner.h, docs/bench.md).
#include <unistd.h>

#include <cstdio>
#include <ctime>
#include <memory>
#include <string>
#include <vector>

#include "src/bench/profile_runner.h"
#include "src/bench/profiles.h"
#include "tools/gnomon/bench_driver_commands.h"
#include "tools/gnomon/commands.h"

#ifndef GNOMON_VERSION
#define GNOMON_VERSION "dev"
#endif

namespace gnomon::tools {
namespace {

struct ProfileRunFlags {
  std::string name;
  std::string work = "bench-results/work";
  std::string out;
  std::string data = "auto";
  std::string data_file;
  std::string server;
  std::vector<std::string> server_args;
  bench::ProfileOverrides overrides;
  bool keep_data_dir = false;
};

void ListProfiles() {
  std::printf("%-18s %-9s %10s  %-22s %-22s %7s %6s  %s\n", "profile", "use case", "scale", "from",
              "to", "workers", "batch", "queries");
  for (const bench::Profile& p : bench::Profiles()) {
    std::string queries = p.query_types.empty()
                              ? "-"
                              : std::to_string(p.query_types.size()) + " types x " +
                                    std::to_string(p.queries_per_type) + " (" +
                                    std::to_string(p.query_workers) + " workers)";
    std::printf("%-18s %-9s %10llu  %-22s %-22s %7d %6llu  %s\n", p.name.c_str(), p.use_case.c_str(),
                static_cast<unsigned long long>(p.scale), p.start.c_str(), p.end.c_str(),
                p.load_workers, static_cast<unsigned long long>(p.batch_size), queries.c_str());
  }
}

// "20261202T061500Z", for a fresh report directory per run.
std::string UtcStamp() {
  std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buf[32];
  std::strftime(buf, sizeof(buf), "%Y%m%dT%H%M%SZ", &tm);
  return buf;
}

// The running binary: `gnomon bench profile` starts this same build's server by default.
std::string SelfPath() {
  char buf[4096];
  ssize_t n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);
  return n > 0 ? std::string(buf, static_cast<size_t>(n)) : std::string("gnomon");
}

Status RunProfileCommand(const ProfileRunFlags& f) {
  GNOMON_ASSIGN_OR_RETURN(bench::Profile base, bench::FindProfile(f.name));
  const bench::Profile profile = bench::OverrideProfile(base, f.overrides);
  bench::ProfileRunOptions o;
  o.gnomon_binary = f.server.empty() ? SelfPath() : f.server;
  o.work_dir = f.work;
  o.out_dir = f.out.empty() ? "bench-results/" + profile.name + "-" + UtcStamp() : f.out;
  if (f.data == "auto") o.data_mode = bench::DataMode::kAuto;
  else if (f.data == "file") o.data_mode = bench::DataMode::kFile;
  else if (f.data == "stream") o.data_mode = bench::DataMode::kStream;
  else return Status::InvalidArgument("--data wants auto, file or stream, got '" + f.data + "'");
  o.data_file = f.data_file;
  o.server_args = f.server_args;
  o.version = GNOMON_VERSION;
  o.keep_data_dir = f.keep_data_dir;
  GNOMON_ASSIGN_OR_RETURN(bench::ProfileRunResult r, bench::RunProfile(profile, o));
  std::fprintf(stderr, "report: %s/summary.md\n", o.out_dir.c_str());
  if (!r.failed_query_types.empty()) {
    std::string list;
    for (const std::string& t : r.failed_query_types) list += (list.empty() ? "" : ", ") + t;
    return Status::Internal("query types failed: " + list);
  }
  return Status::OK();
}

}  // namespace

void RegisterBenchProfileCommand(CLI::App* bench) {
  auto* profile = bench->add_subcommand("profile", "The reports' workloads, one command each");
  profile->require_subcommand(1);
  auto* list = profile->add_subcommand("list", "List the profiles");
  list->callback([] { ListProfiles(); });

  auto flags = std::make_shared<ProfileRunFlags>();
  auto* run = profile->add_subcommand(
      "run", "Generate, start a server, load, query fresh and compacted data, stop, restart, report");
  run->add_option("name", flags->name, "Profile name (gnomon bench profile list)")->required();
  run->add_option("--work", flags->work, "Data files and the data directory")->capture_default_str();
  run->add_option("--out", flags->out, "Report directory (default bench-results/NAME-STAMP)");
  run->add_option("--data", flags->data, "auto, file (generate first) or stream (during the load)")
      ->capture_default_str();
  run->add_option("--data-file", flags->data_file,
                  "Load this file (the profile's data, e.g. from generate-data) instead of making one");
  run->add_option("--server", flags->server, "gnomon binary to start (default: this one)");
  run->add_option("--server-arg", flags->server_args, "Extra `gnomon server` flag (repeatable)")
      ->allow_extra_args(false);
  run->add_option("--scale", flags->overrides.scale, "Override the profile's scale (a shrunken run)");
  run->add_option("--start", flags->overrides.start, "Override the profile's start time (RFC 3339)");
  run->add_option("--end", flags->overrides.end, "Override the profile's end time (RFC 3339)");
  run->add_option("--queries", flags->overrides.queries_per_type, "Queries per type; 0 = no query phase");
  run->add_flag("--keep-data-dir", flags->keep_data_dir, "Leave the server's data directory");
  run->callback([flags] {
    Status s = RunProfileCommand(*flags);
    if (!s.ok()) {
      std::fprintf(stderr, "gnomon bench profile run: %s\n", s.ToString().c_str());
      SetExitCode(1);
    }
  });
}

}  // namespace gnomon::tools
