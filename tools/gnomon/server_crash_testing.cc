#include "tools/gnomon/server_crash_testing.h"

#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <thread>

#include "src/base/fault_point.h"
#include "src/base/logging.h"
#include "src/port/fault_injection_env.h"

namespace gnomon::tools {
namespace {

std::atomic<port::FaultInjectionEnv*> power_loss_env{nullptr};

// Power goes out: what was not synced is gone, then the process dies as kill -9 would.
[[noreturn]] void LosePowerAndDie(std::string_view why) {
  if (port::FaultInjectionEnv* env = power_loss_env.load()) {
    Status s = env->SimulateCrash(port::FaultInjectionEnv::CrashMode::kDropUnsynced, 0, /*reboot=*/false);
    std::fprintf(stderr, "gnomon: power loss (%.*s): unsynced data dropped%s%s\n",
                 static_cast<int>(why.size()), why.data(), s.ok() ? "" : ", with an error: ",
                 s.ok() ? "" : s.ToString().c_str());
    std::fflush(stderr);
  }
  ::kill(::getpid(), SIGKILL);
  std::abort();
}

}  // namespace

void AddCrashTestingFlags(CLI::App* cmd, CrashTestingFlags* flags) {
  std::string points;
  for (std::string_view p : fault::KnownFaultPoints()) points += (points.empty() ? "" : ", ") + std::string(p);
  cmd->add_option("--fault-point", flags->fault_points,
                  "Testing only: die at the N-th pass of NAME[:N][,...] (" + points + ")")
      ->group("Crash testing");
  cmd->add_flag("--simulate-power-loss", flags->simulate_power_loss,
                "Testing only: at a fault point or on SIGUSR1, drop every unsynced byte, then die")
      ->group("Crash testing");
}

void AddCrashTestingSignals(const CrashTestingFlags& flags, sigset_t* mask) {
  if (flags.simulate_power_loss) sigaddset(mask, SIGUSR1);
}

Result<std::shared_ptr<void>> StartCrashTesting(const CrashTestingFlags& flags, port::Env** env) {
  if (!flags.fault_points.empty()) {
    GNOMON_RETURN_IF_ERROR(fault::ArmFaultPoints(flags.fault_points));
    GNOMON_LOG_WARN("[server] crash testing: fault points armed: {}", flags.fault_points);
  }
  if (!flags.simulate_power_loss) return std::shared_ptr<void>();
  auto fault_env = std::make_shared<port::FaultInjectionEnv>(*env);
  power_loss_env = fault_env.get();
  fault::SetCrashAction(LosePowerAndDie);
  sigset_t usr1;
  sigemptyset(&usr1);
  sigaddset(&usr1, SIGUSR1);
  std::thread([usr1] {
    int signal_number = 0;
    sigwait(&usr1, &signal_number);
    LosePowerAndDie("SIGUSR1");
  }).detach();
  GNOMON_LOG_WARN("[server] crash testing: simulating power loss at a fault point or on SIGUSR1");
  *env = fault_env.get();
  return std::shared_ptr<void>(fault_env);
}

}  // namespace gnomon::tools
