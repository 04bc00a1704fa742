#include "src/base/fault_point.h"

#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <unordered_map>

namespace gnomon::fault {
namespace internal {
std::atomic<bool> any_armed{false};
}  // namespace internal

namespace {

struct Armed {
  std::mutex mu;
  std::unordered_map<std::string, uint64_t> passes_left;  // point -> passes until the crash
  CrashAction action = nullptr;
};

Armed& State() {
  static Armed* state = new Armed;  // never destroyed: points may be passed during exit
  return *state;
}

[[noreturn]] void KillSelf(std::string_view) {
  ::kill(::getpid(), SIGKILL);
  std::abort();  // unreachable: SIGKILL cannot be caught
}

}  // namespace

const std::vector<std::string_view>& KnownFaultPoints() {
  // Keep in step with docs/reliability.md ("Fault points").
  static const std::vector<std::string_view> points = {
      "wal.before_sync",            // a group commit's records written, not yet fsynced
      "wal.rotate.after_create",    // a new WAL segment created, its header not yet durable
      "registry.before_sync",       // new series appended to series.log, not yet fsynced
      "flush.after_segment",        // a flushed segment written and synced, not in the manifest
      "flush.after_manifest",       // the manifest names the flush, old WAL segments not removed
      "compaction.after_output",    // a compaction's output written, inputs still live
      "delete.after_rewrite",       // a DELETE's rewritten segments written, not in the manifest
      "manifest.before_rename",     // MANIFEST.tmp written and synced, not renamed
      "manifest.before_dir_sync",   // MANIFEST replaced, directory not yet synced
      "manifest.before_remove",     // manifest saved, replaced segment files not yet removed
  };
  return points;
}

Status ArmFaultPoints(std::string_view spec) {
  std::unordered_map<std::string, uint64_t> parsed;
  while (!spec.empty()) {
    size_t comma = spec.find(',');
    std::string_view item = spec.substr(0, comma);
    spec = comma == std::string_view::npos ? std::string_view() : spec.substr(comma + 1);
    uint64_t count = 1;
    if (size_t colon = item.find(':'); colon != std::string_view::npos) {
      std::string digits(item.substr(colon + 1));
      char* end = nullptr;
      count = std::strtoull(digits.c_str(), &end, 10);
      if (digits.empty() || *end != '\0' || count == 0) {
        return Status::InvalidArgument("fault point count must be a positive integer: " + std::string(item));
      }
      item = item.substr(0, colon);
    }
    bool known = false;
    for (std::string_view p : KnownFaultPoints()) known |= p == item;
    if (!known) return Status::InvalidArgument("unknown fault point: " + std::string(item));
    parsed[std::string(item)] = count;
  }
  Armed& state = State();
  std::lock_guard lock(state.mu);
  state.passes_left = std::move(parsed);
  internal::any_armed.store(!state.passes_left.empty());
  return Status::OK();
}

void DisarmFaultPoints() {
  Armed& state = State();
  std::lock_guard lock(state.mu);
  state.passes_left.clear();
  internal::any_armed.store(false);
}

void SetCrashAction(CrashAction action) {
  Armed& state = State();
  std::lock_guard lock(state.mu);
  state.action = action;
}

namespace internal {

void Reached(std::string_view point) {
  CrashAction action = nullptr;
  {
    Armed& state = State();
    std::lock_guard lock(state.mu);
    auto it = state.passes_left.find(std::string(point));
    if (it == state.passes_left.end() || --it->second > 0) return;
    action = state.action != nullptr ? state.action : KillSelf;
  }
  // Unbuffered and before anything else, so the harness sees where the process died.
  std::fprintf(stderr, "gnomon: fault point %.*s reached: crashing\n", static_cast<int>(point.size()),
               point.data());
  std::fflush(stderr);
  action(point);
  KillSelf(point);
}

}  // namespace internal
}  // namespace gnomon::fault
