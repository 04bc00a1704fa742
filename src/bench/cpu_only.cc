#include "src/bench/cpu_only.h"

#include "src/bench/devops_host.h"
#include "src/bench/distributions.h"

namespace gnomon::bench {
namespace {

class CpuMeasurement final : public SimulatedMeasurement {
 public:
  CpuMeasurement(GoRand& rng, int64_t start_ns, int num_fields)
      : timestamp_(start_ns), num_fields_(num_fields) {
    for (int i = 0; i < num_fields_; ++i) {
      walks_[i] = ClampedWalk(NormalStep{0.0, 1.0}, 0.0, 100.0, rng.Float64() * 100.0);
    }
  }

  void Tick(GoRand& rng, int64_t interval_ns) override {
    timestamp_ += interval_ns;
    for (int i = 0; i < num_fields_; ++i) walks_[i].Advance(rng);
  }

  void ToPoint(Point* p) const override {
    p->SetMeasurement("cpu");
    p->SetTimestamp(timestamp_);
    for (int i = 0; i < num_fields_; ++i) {
      p->AppendInt(kCpuFieldKeys[i], static_cast<int64_t>(walks_[i].Get()));
    }
  }

 private:
  int64_t timestamp_;
  int num_fields_;
  Walk<NormalStep> walks_[10];
};

}  // namespace

const std::string_view kCpuFieldKeys[10] = {
    "usage_user",  "usage_system",  "usage_idle",  "usage_nice",  "usage_iowait",
    "usage_irq",   "usage_softirq", "usage_steal", "usage_guest", "usage_guest_nice"};

std::unique_ptr<SimulatedMeasurement> NewCpuMeasurement(GoRand& rng, int64_t start_ns,
                                                        int num_fields) {
  return std::make_unique<CpuMeasurement>(rng, start_ns, num_fields);
}

std::vector<std::unique_ptr<Generator>> NewCpuOnlyHosts(GoRand& rng, uint64_t scale, int64_t start_ns,
                                                        int num_fields) {
  std::vector<std::unique_ptr<Generator>> hosts;
  hosts.reserve(scale);
  for (uint64_t i = 0; i < scale; ++i) {
    std::vector<std::unique_ptr<SimulatedMeasurement>> ms;
    ms.push_back(NewCpuMeasurement(rng, start_ns, num_fields));
    hosts.push_back(NewDevopsHost(rng, static_cast<int64_t>(i), std::move(ms)));
  }
  return hosts;
}

}  // namespace gnomon::bench
