#include "src/bench/iot_truck.h"

#include <string>
#include <string_view>

namespace gnomon::bench {
namespace {

using UniformWalk = Walk<UniformStep>;

struct TruckModel {
  std::string_view name;
  float load_capacity;
  float fuel_capacity;
  float fuel_consumption;
};

constexpr TruckModel kModels[] = {
    {"F-150", 2000, 200, 15}, {"G-2000", 5000, 300, 19}, {"H-2", 1500, 150, 12}};
constexpr std::string_view kDrivers[] = {"Derek", "Rodney", "Albert", "Andy", "Seth", "Trish"};
constexpr std::string_view kDeviceVersions[] = {"v1.0", "v1.5", "v2.0", "v2.3"};

// readings: seven clamped uniform walks reported through FP truncation (spec 5.2).
class ReadingsMeasurement final : public SimulatedMeasurement {
 public:
  ReadingsMeasurement(GoRand& rng, int64_t start_ns) : timestamp_(start_ns) {
    const UniformStep geo{-0.005, 0.005}, big{-10, 10}, small{-5, 5};
    // Initial values are drawn in field order; velocity, grade and fuel start fixed.
    walks_[0] = ClampedWalk(geo, -90.0, 90.0, rng.Float64() * 90.0);
    walks_[1] = ClampedWalk(geo, -180.0, 180.0, rng.Float64() * 180.0);
    walks_[2] = ClampedWalk(big, 0.0, 5000.0, rng.Float64() * 500);
    walks_[3] = ClampedWalk(big, 0.0, 100.0, 0.0);
    walks_[4] = ClampedWalk(small, 0.0, 360.0, rng.Float64() * 360.0);
    walks_[5] = ClampedWalk(small, 0.0, 100.0, 0.0);
    walks_[6] = ClampedWalk(small, 0.0, 50.0, 25.0);
  }

  void Tick(GoRand& rng, int64_t interval_ns) override {
    timestamp_ += interval_ns;
    for (UniformWalk& w : walks_) w.Advance(rng);
  }

  void ToPoint(Point* p) const override {
    static constexpr std::string_view kKeys[7] = {"latitude", "longitude", "elevation", "velocity",
                                                  "heading",  "grade",     "fuel_consumption"};
    static constexpr int kDigits[7] = {5, 5, 0, 0, 0, 0, 1};
    p->SetMeasurement("readings");
    p->SetTimestamp(timestamp_);
    for (int i = 0; i < 7; ++i) {
      p->AppendFloat(kKeys[i], TruncateToPrecision(walks_[i].Get(), PrecisionScale(kDigits[i])));
    }
  }

 private:
  int64_t timestamp_;
  UniformWalk walks_[7];
};

// diagnostics: fuel_state (refuels to 1 when it hits 0), current_load (lazy, shared U(0,5000)),
// status (clamped N(0,1) walk on [0,5], printed as an integer).
class DiagnosticsMeasurement final : public SimulatedMeasurement {
 public:
  DiagnosticsMeasurement(int64_t start_ns, UniformStep* shared_load)
      : timestamp_(start_ns),
        fuel_(ClampedWalk(UniformStep{-0.001, 0}, 0.0, 1.0, 1.0)),
        load_{UniformStep{0, 1}, shared_load, 0.95},
        status_(ClampedWalk(NormalStep{0, 1}, 0.0, 5.0, 0.0)) {}

  void Tick(GoRand& rng, int64_t interval_ns) override {
    timestamp_ += interval_ns;
    fuel_.Advance(rng);
    if (fuel_.state == fuel_.min) fuel_.state = fuel_.max;
    load_.Advance(rng);
    status_.Advance(rng);
  }

  void ToPoint(Point* p) const override {
    p->SetMeasurement("diagnostics");
    p->SetTimestamp(timestamp_);
    p->AppendFloat("fuel_state", TruncateToPrecision(fuel_.Get(), PrecisionScale(1)));
    p->AppendFloat("current_load", TruncateToPrecision(load_.Get(), PrecisionScale(0)));
    p->AppendInt("status",
                 static_cast<int64_t>(TruncateToPrecision(status_.Get(), PrecisionScale(0))));
  }

 private:
  int64_t timestamp_;
  Walk<UniformStep> fuel_;
  LazyUniform load_;
  Walk<NormalStep> status_;
};

}  // namespace

std::unique_ptr<Generator> NewTruck(GoRand& rng, int64_t id, int64_t start_ns,
                                    UniformStep* shared_load) {
  auto truck = std::make_unique<Generator>();
  truck->measurements.push_back(std::make_unique<ReadingsMeasurement>(rng, start_ns));
  truck->measurements.push_back(std::make_unique<DiagnosticsMeasurement>(start_ns, shared_load));
  const TruckModel& model = kModels[rng.Intn(3)];
  std::string fleet(kIotFleets[rng.Intn(4)]);
  std::string driver(kDrivers[rng.Intn(6)]);
  std::string device(kDeviceVersions[rng.Intn(4)]);
  auto str_tag = [](std::string_view key, std::string value) {
    GeneratorTag t;
    t.key = key;
    t.str = std::move(value);
    return t;
  };
  auto f32_tag = [](std::string_view key, float value) {
    GeneratorTag t;
    t.key = key;
    t.kind = TagValue::Kind::kFloat32;
    t.f32 = value;
    return t;
  };
  truck->tags.push_back(str_tag("name", "truck_" + std::to_string(id)));
  truck->tags.push_back(str_tag("fleet", std::move(fleet)));
  truck->tags.push_back(str_tag("driver", std::move(driver)));
  truck->tags.push_back(str_tag("model", std::string(model.name)));
  truck->tags.push_back(str_tag("device_version", std::move(device)));
  truck->tags.push_back(f32_tag("load_capacity", model.load_capacity));
  truck->tags.push_back(f32_tag("fuel_capacity", model.fuel_capacity));
  truck->tags.push_back(f32_tag("nominal_fuel_consumption", model.fuel_consumption));
  return truck;
}

std::vector<std::unique_ptr<Generator>> NewTrucks(GoRand& rng, uint64_t scale, int64_t start_ns,
                                                  UniformStep* shared_load) {
  std::vector<std::unique_ptr<Generator>> trucks;
  trucks.reserve(scale);
  for (uint64_t i = 0; i < scale; ++i) {
    trucks.push_back(NewTruck(rng, static_cast<int64_t>(i), start_ns, shared_load));
  }
  return trucks;
}

}  // namespace gnomon::bench
