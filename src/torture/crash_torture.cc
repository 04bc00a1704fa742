#include "src/torture/crash_torture.h"

#include <signal.h>

#include <fstream>
#include <memory>
#include <random>
#include <sstream>
#include <thread>

#include "src/base/fault_point.h"
#include "src/base/time_util.h"
#include "src/bench/http_client.h"
#include "src/bench/server_process.h"
#include "src/torture/crash_clients.h"
#include "src/torture/crash_verify.h"

namespace gnomon::torture {
namespace {

using Clock = std::chrono::steady_clock;

// How one cycle ends.
struct CrashPlan {
  bool power_loss = false;
  std::string fault_point;  // "" or NAME:N
  std::chrono::milliseconds load_for{0};
};

CrashPlan PlanCycle(const CrashTortureOptions& o, std::mt19937_64* rng) {
  CrashPlan plan;
  plan.power_loss = o.power_loss == PowerLossMode::kAlways ||
                    (o.power_loss == PowerLossMode::kMixed && (*rng)() % 2 == 0);
  if (std::uniform_real_distribution<double>(0, 1)(*rng) < o.fault_point_share) {
    std::vector<std::string> points = o.fault_points;
    if (points.empty()) {
      for (std::string_view p : fault::KnownFaultPoints()) points.emplace_back(p);
    }
    plan.fault_point = points[(*rng)() % points.size()] + ":" + std::to_string(1 + (*rng)() % 3);
  }
  plan.load_for = std::chrono::milliseconds(100 + (*rng)() % std::max<int64_t>(1, o.max_load.count() - 99));
  if (!plan.fault_point.empty()) plan.load_for = o.max_load;  // the point decides; this is the fallback
  return plan;
}

// The text the server wrote to its log from `offset` on.
std::string LogSince(const std::string& path, std::streamoff offset) {
  std::ifstream in(path);
  in.seekg(offset);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::streamoff LogSize(const std::string& path) {
  std::ifstream in(path, std::ios::ate);
  return in ? static_cast<std::streamoff>(in.tellg()) : 0;
}

// The fault point a server log says the process died at, or "".
std::string FaultPointReached(const std::string& log) {
  constexpr std::string_view kReached = "gnomon: fault point ";
  size_t at = log.find(kReached);
  if (at == std::string::npos) return "";
  at += kReached.size();
  return log.substr(at, log.find(' ', at) - at);
}

class Torture {
 public:
  explicit Torture(const CrashTortureOptions& o) : o_(o), rng_(o.seed) {
    for (int w = 0; w < o.shape.writers; ++w) {
      sources_.push_back(std::make_unique<OperationSource>(o.shape, w, o.seed));
      ledgers_.push_back(std::make_unique<WriterLedger>());
    }
  }

  Result<CrashTortureReport> Run() {
    GNOMON_RETURN_IF_ERROR(Setup());
    for (int cycle = 0; cycle < o_.cycles && report_.violations.empty(); ++cycle) {
      GNOMON_RETURN_IF_ERROR(RunCycle(cycle));
    }
    // A clean stop must keep everything too, and so must the restart after it.
    for (int round = 0; round < 2 && report_.violations.empty(); ++round) {
      bench::ServerProcess server(o_.gnomon_binary, o_.data_dir, BaseArgs());
      if (!StartServer(&server)) break;
      if (!Verify(server, round == 0 ? "after the last crash" : "after a clean stop")) break;
      auto code = server.Stop(SIGTERM, std::chrono::seconds(120));
      if (!code.ok() || *code != 0) Violation("clean stop did not exit 0");
    }
    return report_;
  }

 private:
  std::vector<std::string> BaseArgs() const {
    std::vector<std::string> args = {"--memtable-budget-mb", "1", "--compact-cold-after", "2s"};
    args.insert(args.end(), o_.server_args.begin(), o_.server_args.end());
    return args;
  }

  void Violation(std::string what) {
    if (o_.log) std::fprintf(o_.log, "torture: VIOLATION: %s\n", what.c_str());
    report_.violations.push_back(std::move(what));
  }

  // With `died_at`, a server that reached its armed fault point while recovering (the manifest is
  // saved at every start) is a crash, not a failure: *died_at names the point.
  bool StartServer(bench::ServerProcess* server, std::string* died_at = nullptr) {
    const std::streamoff log_offset = LogSize(server->log_path());
    const auto start = Clock::now();
    Status s = server->Start(o_.max_recovery);
    const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
    if (s.ok()) {
      report_.longest_recovery_s = std::max(report_.longest_recovery_s, seconds);
      return true;
    }
    if (died_at != nullptr) *died_at = FaultPointReached(LogSince(server->log_path(), log_offset));
    if (died_at == nullptr || died_at->empty()) {
      Violation("server did not come up within the recovery bound: " + s.ToString());
    }
    return false;
  }

  Result<ObservedRows> ReadBack(const bench::ServerProcess& server) const {
    GNOMON_ASSIGN_OR_RETURN(bench::Url url, bench::ParseUrl(server.url()));
    return ReadAllRows(url, o_.shape);
  }

  // Every writer's rows against its ledger; false after any violation.
  bool Check(ObservedRows& observed, const std::string& when) {
    for (std::string& v : observed.violations) Violation(when + ": " + v);
    for (int w = 0; w < o_.shape.writers; ++w) {
      const int64_t now = NowNanos();  // later than any retention pass the rows have seen
      std::string diff = ledgers_[w]->Check(
          observed.by_writer[w], [now](const RowKey& key) { return MayBeDroppedByRetention(key, now); });
      if (!diff.empty()) Violation(when + ": writer " + std::to_string(w) + ": " + diff);
    }
    report_.rows_checked += observed.rows;
    return report_.violations.empty();
  }

  bool Verify(const bench::ServerProcess& server, const std::string& when) {
    auto observed = ReadBack(server);
    if (!observed.ok()) {
      Violation(when + ": reading the rows back failed: " + observed.status().ToString());
      return false;
    }
    return Check(*observed, when);
  }

  // The setup rows, on a server of its own (no fault point armed), stopped cleanly.
  Status Setup() {
    bench::ServerProcess server(o_.gnomon_binary, o_.data_dir, BaseArgs());
    GNOMON_RETURN_IF_ERROR(server.Start(o_.max_recovery));
    GNOMON_ASSIGN_OR_RETURN(bench::Url url, bench::ParseUrl(server.url()));
    bench::HttpClient client(url);
    const std::string create_target =
        "/query?q=" + bench::FormUrlEncode("CREATE DATABASE " + DatabaseName(kRetainedDatabase) + " WITH DURATION " +
                                           std::to_string(kRetentionNs / kPartitionNs) + "d");
    bench::HttpRequest create;
    create.target = create_target;
    GNOMON_ASSIGN_OR_RETURN(bench::HttpResponse created, client.Send(create));
    GNOMON_RETURN_IF_ERROR(bench::ExpectSuccess(create_target, created));
    for (uint32_t db = 0; db < kDatabases; ++db) {
      const std::string body = SetupLines(o_.shape, db);
      const std::string target = "/write?db=" + DatabaseName(db) + "&precision=ns";
      bench::HttpRequest request;
      request.target = target;
      request.body = body;
      GNOMON_ASSIGN_OR_RETURN(bench::HttpResponse response, client.Send(request));
      GNOMON_RETURN_IF_ERROR(bench::ExpectSuccess(target, response));
    }
    GNOMON_ASSIGN_OR_RETURN(int code, server.Stop(SIGTERM, std::chrono::seconds(120)));
    if (code != 0) return Status::Internal("the setup server exited with code " + std::to_string(code));
    return Status::OK();
  }

  Status RunCycle(int cycle);
  // One more cycle ended by the plan's crash, at fault point `reached` ("" : at a random moment).
  void CountCrash(const CrashPlan& plan, const std::string& reached) {
    report_.cycles += 1;
    report_.power_loss_cycles += plan.power_loss;
    if (!reached.empty()) report_.fault_points_reached[reached] += 1;
  }
  // Runs the clients until the plan's crash; returns how the server ended (its log's words).
  std::string LoadAndCrash(bench::ServerProcess* server, const CrashPlan& plan, CycleTally* tally);

  const CrashTortureOptions& o_;
  std::mt19937_64 rng_;
  std::vector<std::unique_ptr<OperationSource>> sources_;
  std::vector<std::unique_ptr<WriterLedger>> ledgers_;
  CrashTortureReport report_;
};

Status Torture::RunCycle(int cycle) {
  const CrashPlan plan = PlanCycle(o_, &rng_);
  std::vector<std::string> args = BaseArgs();
  if (plan.power_loss) args.push_back("--simulate-power-loss");
  if (!plan.fault_point.empty()) {
    args.push_back("--fault-point");
    args.push_back(plan.fault_point);
  }
  bench::ServerProcess server(o_.gnomon_binary, o_.data_dir, args);
  const std::streamoff log_offset = LogSize(server.log_path());
  std::string died_at;
  if (!StartServer(&server, &died_at)) {
    if (!died_at.empty()) {
      CountCrash(plan, died_at);
      if (o_.log) std::fprintf(o_.log, "torture: cycle %d: died at %s while recovering\n", cycle + 1, died_at.c_str());
    }
    return Status::OK();
  }
  const std::string when = cycle == 0 ? std::string("after setup") : "after crash " + std::to_string(cycle);
  auto observed = ReadBack(server);
  if (!observed.ok()) {
    // A server that reached its armed fault point before the read-back ended (a flush or a
    // compaction right after start) crashed, which is this cycle's crash: the next start checks.
    // The connection can drop before the dying process is reaped: give it a few seconds.
    died_at = server.WaitExit(std::chrono::seconds(5)) ? FaultPointReached(LogSince(server.log_path(), log_offset)) : "";
    if (died_at.empty()) {
      Violation(when + ": reading the rows back failed: " + observed.status().ToString());
    } else {
      CountCrash(plan, died_at);
      if (o_.log) std::fprintf(o_.log, "torture: cycle %d: died at %s before the rows were read back\n", cycle + 1, died_at.c_str());
    }
    return Status::OK();
  }
  if (!Check(*observed, when)) return Status::OK();
  CycleTally tally;
  const std::string ending = LoadAndCrash(&server, plan, &tally);
  for (std::string& f : tally.failures) Violation("cycle " + std::to_string(cycle) + ": " + f);
  report_.operations_acknowledged += tally.acknowledged;
  report_.operations_unanswered += tally.unanswered;
  report_.queries_answered += tally.queries;
  report_.maintenance_calls += tally.maintenance;
  const std::string log = LogSince(server.log_path(), log_offset);
  const std::string reached = FaultPointReached(log);
  CountCrash(plan, reached);
  if (o_.log) {
    std::fprintf(o_.log, "torture: cycle %d: %s%s, %llu acknowledged, %llu unanswered, %llu queries, %llu maintenance\n",
                 cycle + 1, plan.power_loss ? "power loss " : "kill -9 ",
                 reached.empty() ? ("at a random moment (" + ending + ")").c_str() : ("at " + reached).c_str(),
                 static_cast<unsigned long long>(tally.acknowledged.load()),
                 static_cast<unsigned long long>(tally.unanswered.load()),
                 static_cast<unsigned long long>(tally.queries.load()),
                 static_cast<unsigned long long>(tally.maintenance.load()));
    std::fflush(o_.log);
  }
  return Status::OK();
}

std::string Torture::LoadAndCrash(bench::ServerProcess* server, const CrashPlan& plan, CycleTally* tally) {
  auto url = bench::ParseUrl(server->url());
  std::atomic<bool> stop{false};
  std::vector<std::thread> threads;
  for (int w = 0; w < o_.shape.writers; ++w) {
    threads.emplace_back(RunWriter, *url, w, sources_[w].get(), ledgers_[w].get(), &stop, tally);
  }
  threads.emplace_back(RunQueries, *url, rng_(), &stop, tally);
  threads.emplace_back(RunMaintenance, *url, rng_(), &stop, tally);

  const auto deadline = Clock::now() + plan.load_for;
  std::string ending = "died by itself";
  std::optional<int> exit_code;
  while (!(exit_code = server->PollExit())) {
    if (Clock::now() >= deadline) {
      ending = plan.power_loss ? "SIGUSR1" : "SIGKILL";
      server->Signal(plan.power_loss ? SIGUSR1 : SIGKILL);
      // The power-loss thread truncates files before it dies: give it time, then insist.
      const auto grace = Clock::now() + std::chrono::seconds(30);
      while (!(exit_code = server->PollExit()) && Clock::now() < grace) {
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
      }
      if (!exit_code) {
        Violation("the server did not die within 30 s of " + ending);
        auto code = server->Stop(SIGKILL, std::chrono::seconds(30));
        if (code.ok()) exit_code = *code;
      }
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  stop = true;
  for (std::thread& t : threads) t.join();
  if (exit_code && *exit_code != 128 + SIGKILL) {
    Violation("the server exited with code " + std::to_string(*exit_code) + " instead of dying by SIGKILL (log " +
              server->log_path() + ")");
  }
  return ending;
}

}  // namespace

Result<CrashTortureReport> RunCrashTorture(const CrashTortureOptions& options) {
  CrashTortureOptions o = options;
  if (o.shape.base_time_ns == 0) {
    // Recent rows (a day-aligned start three days back): the retained database's first day has
    // expired, the rest of the data is within its two days.
    const int64_t day = 86400LL * 1000000000;
    o.shape.base_time_ns = (NowNanos() / day - 3) * day;
  }
  return Torture(o).Run();
}

std::string FormatReport(const CrashTortureReport& r) {
  std::string points;
  for (const auto& [point, n] : r.fault_points_reached) points += " " + point + "=" + std::to_string(n);
  std::ostringstream out;
  out << "cycles: " << r.cycles << " (" << r.power_loss_cycles << " with power loss)\n"
      << "fault points reached:" << (points.empty() ? " none" : points) << "\n"
      << "operations acknowledged: " << r.operations_acknowledged << ", unanswered at a crash: "
      << r.operations_unanswered << "\n"
      << "rows checked: " << r.rows_checked << "\n"
      << "concurrent queries answered: " << r.queries_answered << ", flushes, compactions and retention passes: "
      << r.maintenance_calls << "\n"
      << "longest recovery (start to first answer): " << r.longest_recovery_s << " s\n"
      << "violations: " << r.violations.size() << "\n";
  for (const std::string& v : r.violations) out << "  " << v << "\n";
  return out.str();
}

}  // namespace gnomon::torture
