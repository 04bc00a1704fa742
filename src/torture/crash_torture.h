// `gnomon torture crash`: runs the real server under concurrent writers (out-of-order rows,
// repeated times, deletes; two databases of two tables), a query client and a maintenance client
// (flushes, compactions; cold compaction runs on its own), and kills it over and over: at a
// random moment (kill -9), or exactly at an engine fault point (src/base/fault_point.h), and in
// power-loss cycles with every byte that was not fsynced dropped first. After every restart it
// checks every row of every writer against the model (src/torture/crash_model.h): acknowledged
// rows present exactly once with their exact values, deletes still deleted, an unanswered request
// all there or all absent; and that the server answered within the recovery bound.
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "src/base/result.h"
#include "src/torture/crash_workload.h"

namespace gnomon::torture {

enum class PowerLossMode { kNever, kMixed, kAlways };

struct CrashTortureOptions {
  std::string gnomon_binary;
  std::string data_dir;  // the server's data directory (created; left behind for inspection)
  int cycles = 20;
  uint64_t seed = 1;
  PowerLossMode power_loss = PowerLossMode::kMixed;
  double fault_point_share = 0.5;  // of cycles: crash at an armed fault point (else at random)
  std::vector<std::string> fault_points;  // the points to choose from (empty: every known one)
  // A cycle's load runs for a random time up to this before the kill (a fault point may come first).
  std::chrono::milliseconds max_load{1500};
  std::chrono::seconds max_recovery{30};  // start to first answer; longer is a violation
  WorkloadShape shape;
  std::vector<std::string> server_args;  // more `gnomon server` flags
  std::FILE* log = stderr;               // one line per cycle; nullptr = quiet
};

struct CrashTortureReport {
  int cycles = 0;
  int power_loss_cycles = 0;
  std::map<std::string, int> fault_points_reached;  // point -> cycles that died there
  uint64_t operations_acknowledged = 0;
  uint64_t operations_unanswered = 0;  // in flight at a crash, outcome checked after it
  uint64_t rows_checked = 0;           // summed over every verification
  uint64_t queries_answered = 0;       // by the concurrent query client
  uint64_t maintenance_calls = 0;      // flushes and compactions asked for and done
  double longest_recovery_s = 0;
  std::vector<std::string> violations;  // empty: every check passed
};

// Runs the cycles, then a clean stop and a last restart and check. Errors are failures of the
// harness itself (cannot start the server at all, I/O); broken promises are violations.
Result<CrashTortureReport> RunCrashTorture(const CrashTortureOptions& options);

// The report as a few lines of text.
std::string FormatReport(const CrashTortureReport& report);

}  // namespace gnomon::torture
