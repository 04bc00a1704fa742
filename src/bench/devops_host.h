// The devops / cpu-only host: ten string tags drawn once at creation (spec 3.2), after the host's
// measurements have drawn their own initial values.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "src/bench/go_rand.h"
#include "src/bench/simulator.h"

namespace gnomon::bench {

// Tag keys in row order: hostname, region, datacenter, rack, os, arch, team, service,
// service_version, service_environment.
extern const std::string_view kHostTagKeys[10];

// Builds host `id` from already-created `measurements`, drawing its tags in TSBS's order: region,
// datacenter, rack, arch, os, service, service_version, service_environment, team.
std::unique_ptr<Generator> NewDevopsHost(GoRand& rng, int64_t id,
                                         std::vector<std::unique_ptr<SimulatedMeasurement>> measurements);

}  // namespace gnomon::bench
