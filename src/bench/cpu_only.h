// The cpu measurement (spec 3.3) and the cpu-only / cpu-single use cases built on it.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "src/bench/go_rand.h"
#include "src/bench/simulator.h"

namespace gnomon::bench {

// Field names of `cpu`, in row order.
extern const std::string_view kCpuFieldKeys[10];

// `cpu`: the first `num_fields` (10, or 1 for cpu-single) of usage_user ... usage_guest_nice, each a
// clamped N(0,1) walk on [0, 100] starting at 100*U (one Float64 per field, in order); printed as
// the state truncated to int64.
std::unique_ptr<SimulatedMeasurement> NewCpuMeasurement(GoRand& rng, int64_t start_ns,
                                                        int num_fields = 10);

// The cpu-only (num_fields 10) or cpu-single (1) hosts 0 .. scale-1.
std::vector<std::unique_ptr<Generator>> NewCpuOnlyHosts(GoRand& rng, uint64_t scale, int64_t start_ns,
                                                        int num_fields);

}  // namespace gnomon::bench
