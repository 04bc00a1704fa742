// The time-major simulation shared by every use case (TSBS's BaseSimulator / commonDevopsSimulator):
// generators (hosts or trucks) each own tags and an ordered list of measurements; for each epoch,
// for each measurement, for each generator, one point is made from the current state; after the last
// point of an epoch every generator advances all its measurements by one tick (generator 0 first).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "src/bench/go_rand.h"
#include "src/bench/point.h"

namespace gnomon::bench {

class SimulatedMeasurement {
 public:
  virtual ~SimulatedMeasurement() = default;
  // Advances the timestamp by `interval_ns` and every distribution by one step, in field order,
  // drawing from `rng`.
  virtual void Tick(GoRand& rng, int64_t interval_ns) = 0;
  // Sets the measurement name and timestamp and appends this measurement's tags and fields.
  virtual void ToPoint(Point* p) const = 0;
};

// A generator's fixed tag (string or float32), owned here so points can refer to it by view.
struct GeneratorTag {
  std::string_view key;
  TagValue::Kind kind = TagValue::Kind::kString;
  std::string str;
  float f32 = 0;
};

struct Generator {
  std::vector<GeneratorTag> tags;
  std::vector<std::unique_ptr<SimulatedMeasurement>> measurements;

  void TickAll(GoRand& rng, int64_t interval_ns) {
    for (auto& m : measurements) m->Tick(rng, interval_ns);
  }
};

struct SimulationWindow {
  int64_t start_ns = 0;
  int64_t end_ns = 0;       // exclusive
  int64_t interval_ns = 0;  // > 0
  uint64_t initial_scale = 0;  // generators written in epoch 0 (ramp-up); REQUIRES: > 0
  uint64_t max_points = 0;     // 0 = all epochs
};

class BaseSimulator {
 public:
  // REQUIRES: !generators.empty(), all with the same number (>= 1) of measurements. `rng` (the
  // stream the generators were created from) must outlive the simulator.
  BaseSimulator(GoRand* rng, std::vector<std::unique_ptr<Generator>> generators,
                const SimulationWindow& window);

  bool Finished() const { return made_points_ >= max_points_; }

  // Fills `p` (which must be Reset) with the next point. Returns whether it is to be written (false
  // for generators not yet ramped up). May be called after Finished(): it then keeps simulating
  // further epochs, as TSBS's IoT batching does near the end of a run.
  bool Next(Point* p);

  uint64_t epochs() const { return epochs_; }
  uint64_t max_points() const { return max_points_; }
  size_t num_generators() const { return generators_.size(); }
  const Generator& generator(size_t i) const { return *generators_[i]; }

 private:
  void AdjustGeneratorsForEpoch();

  GoRand* rng_;
  std::vector<std::unique_ptr<Generator>> generators_;
  size_t num_measurements_;
  int64_t interval_ns_;
  uint64_t epochs_;
  uint64_t max_points_;
  uint64_t made_points_ = 0;
  uint64_t initial_generators_;
  uint64_t epoch_generators_;
  uint64_t epoch_ = 0;
  size_t generator_index_ = 0;
  size_t measurement_index_ = 0;
};

}  // namespace gnomon::bench
