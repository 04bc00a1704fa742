// Fuzz target: any bytes as a WAL segment file must replay to a Status, never a crash, under every
// combination of repair and corruption policy; and what replay reports must hold together:
//  * the callback saw exactly report.records records, with increasing LSNs naming their segment;
//  * read-only replay (repair off) changes no file;
//  * after a repairing replay succeeded, the log replays again undamaged to the same records.
// Each input is tried alone (segment 1) and followed by a valid segment 2 that Wal::Open writes,
// so that damage in segment 1 is damage in the middle of the log.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "src/base/check.h"
#include "src/port/mem_env.h"
#include "src/wal/replay.h"
#include "src/wal/segment_file.h"
#include "src/wal/wal.h"
#include "src/wal/wal_format.h"

using namespace gnomon;       // NOLINT
using namespace gnomon::wal;  // NOLINT

namespace {

constexpr char kDir[] = "/wal";

struct Replayed {
  std::vector<std::string> records;
  std::vector<uint64_t> lsns;
};

// Every segment file's bytes, to see that a read-only replay wrote nothing.
std::vector<std::string> Snapshot(port::Env* env) {
  std::vector<std::string> out;
  auto segments = ListSegments(env, kDir);
  GNOMON_CHECK(segments.ok());
  for (const SegmentFile& s : *segments) {
    auto bytes = port::ReadFileToString(env, s.path);
    GNOMON_CHECK(bytes.ok());
    out.push_back(s.path + ":" + *bytes);
  }
  return out;
}

Result<ReplayReport> Replay(port::Env* env, const ReplayOptions& options, Replayed* out) {
  return ReplayWal(env, kDir, options, [&](std::string_view record, uint64_t lsn) {
    GNOMON_CHECK(out->lsns.empty() || lsn > out->lsns.back());
    GNOMON_CHECK(LsnSegment(lsn) >= 1);
    out->records.emplace_back(record);
    out->lsns.push_back(lsn);
    return Status::OK();
  });
}

void RunOne(std::string_view input, bool with_later_segment, bool repair, CorruptionPolicy policy) {
  port::MemEnv env;
  GNOMON_CHECK(env.CreateDirs(kDir).ok());
  GNOMON_CHECK(port::WriteFileAtomic(&env, port::JoinPath(kDir, SegmentFileName(1)), input).ok());
  if (with_later_segment) {
    WalOptions wo;
    wo.env = &env;
    wo.dir = kDir;
    auto w = Wal::Open(wo);
    GNOMON_CHECK(w.ok());
    GNOMON_CHECK((*w)->Append("later record", /*sync=*/true).ok());
    GNOMON_CHECK((*w)->Close().ok());
  }
  const std::vector<std::string> before = Snapshot(&env);

  ReplayOptions options;
  options.repair = repair;
  options.on_corruption = policy;
  Replayed first;
  auto report = Replay(&env, options, &first);
  if (!report.ok()) {
    GNOMON_CHECK(!report.status().message().empty());
    return;
  }
  GNOMON_CHECK(report->records == first.records.size());
  GNOMON_CHECK(report->records == 0 || report->last_lsn == first.lsns.back());
  GNOMON_CHECK(!report->truncated || report->damaged);
  if (!repair) {
    GNOMON_CHECK(Snapshot(&env) == before);
    return;
  }
  // Repaired: the log is clean now and holds what was passed.
  Replayed again;
  ReplayOptions check;
  check.repair = false;
  auto second = Replay(&env, check, &again);
  GNOMON_CHECK(second.ok());
  GNOMON_CHECK(!second->damaged);
  GNOMON_CHECK(again.records == first.records);
  GNOMON_CHECK(again.lsns == first.lsns);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // Past a few blocks the reader only repeats itself; keep runs fast.
  if (size > 4 * kBlockSize) return 0;
  std::string_view input(reinterpret_cast<const char*>(data), size);
  for (bool later : {false, true}) {
    for (bool repair : {false, true}) {
      for (CorruptionPolicy policy : {CorruptionPolicy::kFail, CorruptionPolicy::kTruncate}) {
        RunOne(input, later, repair, policy);
      }
    }
  }
  return 0;
}
