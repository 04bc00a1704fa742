// Fault points: named places in the engine where a test harness can make the process die, so a
// crash lands exactly inside a manifest replacement, a flush, a compaction or a WAL rotation
// instead of wherever a timer happens to fire (docs/reliability.md lists the points).
//
//   GNOMON_FAULT_POINT("flush.after_segment");
//
// Nothing is armed in a normal process; an unarmed point costs one relaxed atomic load. Armed
// (`gnomon server --fault-point NAME[:N]`, or ArmFaultPoints), the N-th pass through the named
// point runs the crash action: by default SIGKILL of the process, as `kill -9` would; a server
// simulating power loss installs one that first drops every byte not yet fsynced.
#pragma once

#include <atomic>
#include <string>
#include <string_view>
#include <vector>

#include "src/base/status.h"

namespace gnomon::fault {

// Every point compiled into the engine, for --help, validation and the harness's random choice.
const std::vector<std::string_view>& KnownFaultPoints();

// Arms points from "name[:n][,name[:n]...]" (n >= 1, default 1: the first pass crashes).
// InvalidArgument for an unknown name or a bad count; nothing is armed then.
Status ArmFaultPoints(std::string_view spec);
void DisarmFaultPoints();

// What a crash does. Must not return (it may run arbitrary code first: it is called on the
// thread that reached the point, with no engine lock released).
using CrashAction = void (*)(std::string_view point);
void SetCrashAction(CrashAction action);

namespace internal {
extern std::atomic<bool> any_armed;
void Reached(std::string_view point);
}  // namespace internal

inline void Pass(std::string_view point) {
  if (internal::any_armed.load(std::memory_order_relaxed)) internal::Reached(point);
}

}  // namespace gnomon::fault

#define GNOMON_FAULT_POINT(name) ::gnomon::fault::Pass(name)
