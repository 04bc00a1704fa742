// `gnomon bench generate-data`: TSBS-compatible data generation (tsbs_generate_data --format=influx).
// Same flags, same seed => the same bytes as TSBS (spec sections 1-5, Appendix A).
#pragma once

#include <cstdint>
#include <string>

#include "src/base/result.h"
#include "src/port/env.h"

namespace gnomon::bench {

struct DataGenConfig {
  std::string use_case;         // cpu-only | cpu-single | devops | iot
  uint64_t scale = 1;           // hosts or trucks; > 0
  int64_t seed = 0;             // 0: time-based (non-reproducible), as TSBS
  int64_t start_ns = 0;         // --timestamp-start
  int64_t end_ns = 0;           // --timestamp-end, exclusive
  int64_t interval_ns = 10'000'000'000;  // --log-interval; > 0
  uint64_t initial_scale = 0;   // 0: = scale
  uint64_t max_data_points = 0; // 0: unlimited
  uint64_t interleaved_group_id = 0;
  uint64_t interleaved_groups = 1;
};

struct DataGenStats {
  uint64_t rows_written = 0;
  uint64_t bytes_written = 0;
};

// Checks the config the way TSBS does (scale > 0, interval > 0, group id < groups, known use case).
Status ValidateDataGenConfig(const DataGenConfig& config);

// Generates the whole data set as Influx line protocol into `out` (not closed).
Result<DataGenStats> GenerateData(const DataGenConfig& config, port::WritableFile* out);

}  // namespace gnomon::bench
