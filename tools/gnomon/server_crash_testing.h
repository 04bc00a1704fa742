// Crash testing of `gnomon server` (used by `gnomon torture crash`, docs/reliability.md):
//   --fault-point NAME[:N]   die at the N-th pass through an engine fault point (kill -9 alike)
//   --simulate-power-loss    run on a file system layer that remembers what was fsynced; at a
//                            fault point, or on SIGUSR1, drop every byte not yet synced (and
//                            files whose directory entry was never synced), then die
// Neither is for production: they exist so a harness can crash the server exactly where it wants
// and check that nothing acknowledged is lost.
#pragma once

#include <csignal>
#include <memory>
#include <string>

#include <CLI/CLI.hpp>

#include "src/base/status.h"
#include "src/port/env.h"

namespace gnomon::tools {

struct CrashTestingFlags {
  std::string fault_points;
  bool simulate_power_loss = false;
};

void AddCrashTestingFlags(CLI::App* cmd, CrashTestingFlags* flags);

// Signals the server thread must block before any other thread starts (SIGUSR1 under
// --simulate-power-loss), added to *mask.
void AddCrashTestingSignals(const CrashTestingFlags& flags, sigset_t* mask);

// Arms the fault points and, for power loss, builds the env the engine must use (*env; left
// unchanged otherwise) and starts the thread that crashes on SIGUSR1. The returned object keeps
// it alive for the process's life.
Result<std::shared_ptr<void>> StartCrashTesting(const CrashTestingFlags& flags, port::Env** env);

}  // namespace gnomon::tools
