// The three data sets TSBS generated for the team's reference (test/testdata/tsbs/README.md):
// their generator flags and the facts of TSBS's own raw output (SHA-256, lines, bytes). Tests
// generate these bytes in process instead of reading TSBS's files; tsbs_golden_test.cc proves
// them identical.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "src/bench/data_generator.h"

namespace gnomon::bench {

struct TsbsReferenceSet {
  std::string_view name;        // "cpu-only-s100-1d"
  std::string_view use_case;    // cpu-only | devops | iot
  uint64_t scale = 0;
  uint64_t lines = 0;           // of TSBS's raw output
  uint64_t bytes = 0;
  std::string_view raw_sha256;  // lower-case hex
  std::map<std::string, uint64_t> lines_per_measurement;
};

// One of "cpu-only-s100-1d", "devops-s10-1d", "iot-s100-1d"; nullptr for any other name.
const TsbsReferenceSet* FindTsbsReference(std::string_view name);

// The generator config that reproduces `set`: seed 123, 2023-06-11T00:00:00Z to
// 2023-06-12T00:00:00Z, 10 s interval.
DataGenConfig TsbsReferenceConfig(const TsbsReferenceSet& set);

// The team's compressed copy of the set, `<shared>/tsbs/<name>.influx.xz`, where `<shared>` is
// $GNOMON_SHARED_DIR if set, else `fallback_shared_dir`. Optional extra checks only: nothing
// may require it (the file is not part of the repository).
std::string TsbsReferenceXzPath(const TsbsReferenceSet& set, std::string_view fallback_shared_dir);

}  // namespace gnomon::bench
