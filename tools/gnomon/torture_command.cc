// `gnomon torture crash`: the crash harness of src/torture (docs/reliability.md). Exit code 0 when
// every check passed, 1 on a violation, 2 when the harness itself could not run.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>

#include <fstream>

#include "src/torture/crash_torture.h"
#include "src/torture/load_torture.h"
#include "tools/gnomon/commands.h"

namespace gnomon::tools {
namespace {

struct TortureFlags {
  std::string data_dir;
  int cycles = 20;
  uint64_t seed = 1;
  std::string power_loss = "mixed";
  double fault_point_share = 0.5;
  int max_load_ms = 1500;
  int writers = 3;
  bool keep = false;
};

std::string SelfBinary() {
  std::error_code ec;
  auto path = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::string("gnomon") : path.string();
}

int RunCrash(const TortureFlags& f) {
  torture::CrashTortureOptions o;
  o.gnomon_binary = SelfBinary();
  o.cycles = f.cycles;
  o.seed = f.seed;
  o.power_loss = f.power_loss == "always" ? torture::PowerLossMode::kAlways
                 : f.power_loss == "never" ? torture::PowerLossMode::kNever
                                           : torture::PowerLossMode::kMixed;
  o.fault_point_share = f.fault_point_share;
  o.max_load = std::chrono::milliseconds(f.max_load_ms);
  o.shape.writers = f.writers;
  bool made_dir = false;
  o.data_dir = f.data_dir;
  if (o.data_dir.empty()) {
    std::string tmpl = (std::filesystem::temp_directory_path() / "gnomon-torture-XXXXXX").string();
    if (mkdtemp(tmpl.data()) == nullptr) {
      std::fprintf(stderr, "gnomon torture: cannot make a temporary directory\n");
      return 2;
    }
    o.data_dir = tmpl;
    made_dir = true;
  } else if (std::filesystem::exists(o.data_dir) && !std::filesystem::is_empty(o.data_dir)) {
    std::fprintf(stderr, "gnomon torture: %s is not empty: the model starts from an empty database\n",
                 o.data_dir.c_str());
    return 2;
  }
  std::fprintf(stderr, "gnomon torture: data directory %s (server log %s.log)\n", o.data_dir.c_str(),
               o.data_dir.c_str());
  auto report = torture::RunCrashTorture(o);
  if (!report.ok()) {
    std::fprintf(stderr, "gnomon torture: %s\n", report.status().ToString().c_str());
    return 2;
  }
  std::printf("%s", torture::FormatReport(*report).c_str());
  const bool passed = report->violations.empty();
  if (passed && made_dir && !f.keep) {
    std::error_code ec;
    std::filesystem::remove_all(o.data_dir, ec);
    std::filesystem::remove(o.data_dir + ".log", ec);
  }
  return passed ? 0 : 1;
}

struct TortureLoadFlags {
  std::string data_dir;
  int seconds = 600;
  int interval = 10;
  int writers = 4;
  int query_clients = 2;
  int hosts = 1000;
  int rows = 1000;
  std::string csv;
  std::string svg;
  std::vector<std::string> server_args;
};

int RunLoad(const TortureLoadFlags& f) {
  torture::LoadTortureOptions o;
  o.gnomon_binary = SelfBinary();
  o.duration = std::chrono::seconds(f.seconds);
  o.interval = std::chrono::seconds(std::min(f.interval, f.seconds));
  o.writers = f.writers;
  o.query_clients = f.query_clients;
  o.hosts = f.hosts;
  o.rows_per_request = f.rows;
  o.server_args = f.server_args;
  o.data_dir = f.data_dir;
  bool made_dir = false;
  if (o.data_dir.empty()) {
    std::string tmpl = (std::filesystem::temp_directory_path() / "gnomon-load-XXXXXX").string();
    if (mkdtemp(tmpl.data()) == nullptr) {
      std::fprintf(stderr, "gnomon torture: cannot make a temporary directory\n");
      return 2;
    }
    o.data_dir = tmpl;
    made_dir = true;
  }
  std::fprintf(stderr, "gnomon torture load: data directory %s (server log %s.log)\n", o.data_dir.c_str(),
               o.data_dir.c_str());
  auto report = torture::RunLoadTorture(o);
  if (!report.ok()) {
    std::fprintf(stderr, "gnomon torture: %s\n", report.status().ToString().c_str());
    return 2;
  }
  std::printf("%s", torture::FormatLoadReport(*report).c_str());
  if (!f.csv.empty()) std::ofstream(f.csv) << torture::LoadReportCsv(*report);
  if (!f.svg.empty()) std::ofstream(f.svg) << torture::LoadReportSvg(*report);
  const bool passed = report->violations.empty();
  if (passed && made_dir) {
    std::error_code ec;
    std::filesystem::remove_all(o.data_dir, ec);
    std::filesystem::remove(o.data_dir + ".log", ec);
  }
  return passed ? 0 : 1;
}

}  // namespace

void RegisterTortureCommand(CLI::App& app) {
  auto* torture = app.add_subcommand("torture", "Harnesses that try to break the server's promises");
  torture->require_subcommand(1);
  auto flags = std::make_shared<TortureFlags>();
  auto* crash = torture->add_subcommand(
      "crash", "Kill the server (kill -9, fault points, power loss) under load and check every row after each restart");
  crash->add_option("--data-dir", flags->data_dir, "Empty directory for the server (default: a temporary one)");
  crash->add_option("--cycles", flags->cycles, "Crash cycles")->capture_default_str();
  crash->add_option("--seed", flags->seed, "Seed of the workload and the crash plan")->capture_default_str();
  crash->add_option("--power-loss", flags->power_loss, "never | mixed (every other cycle, at random) | always")
      ->check(CLI::IsMember({"never", "mixed", "always"}))
      ->capture_default_str();
  crash->add_option("--fault-point-share", flags->fault_point_share,
                    "Share of cycles that crash at an armed fault point (the rest at a random moment)")
      ->check(CLI::Range(0.0, 1.0))
      ->capture_default_str();
  crash->add_option("--max-load-ms", flags->max_load_ms, "Longest load of a cycle before its crash")
      ->check(CLI::Range(100, 600000))
      ->capture_default_str();
  crash->add_option("--writers", flags->writers, "Concurrent writers")->check(CLI::Range(1, 64))->capture_default_str();
  crash->add_flag("--keep", flags->keep, "Keep the temporary data directory after a passing run");
  crash->callback([flags] { SetExitCode(RunCrash(*flags)); });

  auto load_flags = std::make_shared<TortureLoadFlags>();
  auto* load = torture->add_subcommand(
      "load", "Sustained mixed load: writers at full speed, every TSBS devops query, counts checked, latencies and RSS");
  load->add_option("--data-dir", load_flags->data_dir, "Directory for the server (default: a temporary one)");
  load->add_option("--seconds", load_flags->seconds, "How long the load runs")->check(CLI::Range(1, 86400))->capture_default_str();
  load->add_option("--interval", load_flags->interval, "Seconds per report row")->check(CLI::Range(1, 3600))->capture_default_str();
  load->add_option("--writers", load_flags->writers, "Concurrent writers")->check(CLI::Range(1, 64))->capture_default_str();
  load->add_option("--query-clients", load_flags->query_clients, "Concurrent query clients")
      ->check(CLI::Range(0, 64))
      ->capture_default_str();
  load->add_option("--hosts", load_flags->hosts, "TSBS hosts (series)")->check(CLI::Range(1, 10000000))->capture_default_str();
  load->add_option("--rows", load_flags->rows, "Rows per write request")->check(CLI::Range(1, 100000))->capture_default_str();
  load->add_option("--csv", load_flags->csv, "Write the per-interval figures to this CSV file");
  load->add_option("--svg", load_flags->svg, "Draw them (latency, throughput, RSS over time) into this SVG file");
  load->add_option("--server-arg", load_flags->server_args, "A flag for gnomon server (repeatable)");
  load->callback([load_flags] { SetExitCode(RunLoad(*load_flags)); });
}

}  // namespace gnomon::tools
