// The iot use case's trucks (spec 5.1-5.3): five string tags, three float32 "tags" derived from the
// model, and the `readings` and `diagnostics` measurements.
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "src/bench/distributions.h"
#include "src/bench/go_rand.h"
#include "src/bench/simulator.h"

namespace gnomon::bench {

// Creates truck `id`: readings' initial values first, then model, fleet, driver, device_version.
// `shared_load` is the one U(0, 5000) that every truck's current_load reads (TSBS quirk); it must
// outlive the truck.
std::unique_ptr<Generator> NewTruck(GoRand& rng, int64_t id, int64_t start_ns, UniformStep* shared_load);

std::vector<std::unique_ptr<Generator>> NewTrucks(GoRand& rng, uint64_t scale, int64_t start_ns,
                                                  UniformStep* shared_load);

// pkg/data/usecases/iot/truck.go FleetChoices, in order (GetRandomFleet: Intn(4)).
inline constexpr std::string_view kIotFleets[] = {"East", "West", "North", "South"};

// The most fields any iot measurement has (readings: 7) and the tag count (8), which parameterise
// the IoT batch perturbations.
inline constexpr int kIotMaxFieldCount = 7;
inline constexpr int kIotTagCount = 8;

}  // namespace gnomon::bench
