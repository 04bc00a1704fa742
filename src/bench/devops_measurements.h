// The nine measurements of the devops use case (spec section 4), in emission order: cpu, diskio,
// disk, kernel, mem, net, nginx, postgresl (sic), redis.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "src/bench/go_rand.h"
#include "src/bench/simulator.h"

namespace gnomon::bench {

// Creates one host's nine measurements, drawing their initial values and fixed tags in TSBS's order.
std::vector<std::unique_ptr<SimulatedMeasurement>> NewDevopsMeasurements(GoRand& rng, int64_t start_ns);

// The devops hosts 0 .. scale-1 (measurements first, then the host tags, per host).
std::vector<std::unique_ptr<Generator>> NewDevopsHosts(GoRand& rng, uint64_t scale, int64_t start_ns);

}  // namespace gnomon::bench
