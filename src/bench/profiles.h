// The workload profiles of the reports Gnomon is measured against (../shared/seeds, issue 10):
// the seed headline (cpu-only, 4,000 hosts × 3 days), TDengine's five fleet sizes for cpu-only
// and IoT, and benchANT's devops leaderboard run. `gnomon bench profile run NAME` runs one of
// them end to end (src/bench/profile_runner.h); this file only says what each one is.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "src/base/result.h"

namespace gnomon::bench {

struct Profile {
  std::string name;
  std::string origin;    // where the setting comes from, for the report
  std::string use_case;  // cpu-only, devops or iot (TSBS use cases)
  uint64_t scale = 0;    // hosts or trucks
  std::string start;     // RFC 3339
  std::string end;       // RFC 3339, exclusive
  std::string log_interval = "10s";
  int load_workers = 4;
  uint64_t batch_size = 10000;
  // Query phase: these types, `queries_per_type` each, from `query_workers` clients, once on
  // fresh data and once after flush and compaction. Empty: no query phase (the generator has
  // devops queries only; IoT queries come with the query-engine issue).
  std::vector<std::string> query_types;
  uint64_t queries_per_type = 0;
  int query_workers = 1;
};

// Every profile, in the order `gnomon bench profile list` prints them.
const std::vector<Profile>& Profiles();
// The profile called `name`, or NotFound listing the names.
Result<Profile> FindProfile(const std::string& name);

// Rows the profile's data set holds (steps × devices × measurements; IoT: TSBS's two
// measurements per truck before its perturbations).
uint64_t ExpectedRows(const Profile& profile);
// A rough size of the line-protocol text, to choose between a data file and streaming.
uint64_t EstimatedDataBytes(const Profile& profile);

// The 15 devops query types the TSBS reports run.
const std::vector<std::string>& ReportedDevopsQueryTypes();

}  // namespace gnomon::bench
