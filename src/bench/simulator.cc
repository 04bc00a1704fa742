#include "src/bench/simulator.h"

#include <cmath>

#include "src/base/check.h"

namespace gnomon::bench {
namespace {

// Go's uint64(f) on amd64: truncation for in-range values; NaN and out-of-range give 1 << 63.
uint64_t GoFloatToUint64(double f) {
  if (!(f >= 0) || !(f < 18446744073709551616.0)) return uint64_t{1} << 63;
  return static_cast<uint64_t>(f);
}

}  // namespace

BaseSimulator::BaseSimulator(GoRand* rng, std::vector<std::unique_ptr<Generator>> generators,
                             const SimulationWindow& window)
    : rng_(rng),
      generators_(std::move(generators)), interval_ns_(window.interval_ns) {
  GNOMON_CHECK(!generators_.empty());
  GNOMON_CHECK(window.interval_ns > 0);
  num_measurements_ = generators_[0]->measurements.size();
  GNOMON_CHECK(num_measurements_ > 0);
  const int64_t span = window.end_ns - window.start_ns;
  // Go: uint64(duration / interval); a negative span wraps, as there.
  epochs_ = static_cast<uint64_t>(span / window.interval_ns);
  max_points_ = epochs_ * generators_.size() * num_measurements_;
  if (window.max_points > 0 && window.max_points < max_points_) max_points_ = window.max_points;
  initial_generators_ = window.initial_scale;
  epoch_generators_ = window.initial_scale;
}

void BaseSimulator::AdjustGeneratorsForEpoch() {
  ++epoch_;
  const double missing = static_cast<double>(generators_.size() - initial_generators_);
  epoch_generators_ = initial_generators_ +
                      GoFloatToUint64(missing * static_cast<double>(epoch_) /
                                      static_cast<double>(epochs_ - 1));
}

bool BaseSimulator::Next(Point* p) {
  if (generator_index_ == generators_.size()) {
    generator_index_ = 0;
    ++measurement_index_;
  }
  if (measurement_index_ == num_measurements_) {
    measurement_index_ = 0;
    for (auto& g : generators_) g->TickAll(*rng_, interval_ns_);
    AdjustGeneratorsForEpoch();
  }
  const Generator& g = *generators_[generator_index_];
  for (const GeneratorTag& tag : g.tags) {
    if (tag.kind == TagValue::Kind::kFloat32) {
      p->AppendFloat32Tag(tag.key, tag.f32);
    } else {
      p->AppendTag(tag.key, tag.str);
    }
  }
  g.measurements[measurement_index_]->ToPoint(p);
  const bool write = generator_index_ < epoch_generators_;
  ++made_points_;
  ++generator_index_;
  return write;
}

}  // namespace gnomon::bench
