// `gnomon bench profile run NAME`: one workload profile (src/bench/profiles.h) end to end:
//   data (a file generated beforehand, as TSBS does, or generated during the load where the file
//   would not fit on disk) -> a fresh `gnomon server` -> the timed load -> each query type on
//   fresh data -> POST /v1/admin/compact -> each query type again -> a clean stop -> storage
//   bytes -> a restart timed to its first answer -> the report (summary.md, summary.json).
// Server CPU and peak RSS come from /proc of the child.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "src/base/result.h"
#include "src/bench/profiles.h"
#include "src/bench/report.h"

namespace gnomon::bench {

enum class DataMode {
  kAuto,    // a file when it fits in half the work directory's free space, else stream
  kFile,    // generate WORK/<name>.lp once (kept and reused by later runs) and load from it
  kStream,  // generate during the load (the generator's CPU counts against the load)
};

struct ProfileRunOptions {
  std::string gnomon_binary;  // the server to start
  std::string work_dir;       // data files and the data directory
  std::string out_dir;        // the report and raw results
  DataMode data_mode = DataMode::kAuto;
  std::string data_file;  // load this file (the profile's data, made beforehand) instead
  std::vector<std::string> server_args;  // extra `gnomon server` flags
  std::string version = "dev";
  bool keep_data_dir = false;  // leave WORK/data-<name> behind (default: removed at the end)
  std::FILE* log = stderr;     // progress lines; nullptr = quiet
};

struct ProfileRunResult {
  ReportInput report;
  std::vector<std::string> failed_query_types;  // types whose run failed (details in the log)
};

// `--scale`, `--start`, `--end` and `--queries` of a run (0, empty, negative: the profile's).
struct ProfileOverrides {
  uint64_t scale = 0;
  std::string start;
  std::string end;
  int64_t queries_per_type = -1;  // 0: no query phase
};
Profile OverrideProfile(Profile profile, const ProfileOverrides& overrides);

Result<ProfileRunResult> RunProfile(const Profile& profile, const ProfileRunOptions& options);

}  // namespace gnomon::bench
