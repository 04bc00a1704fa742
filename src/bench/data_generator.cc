#include "src/bench/data_generator.h"

#include <memory>
#include <vector>

#include "src/base/time_util.h"
#include "src/bench/cpu_only.h"
#include "src/bench/devops_measurements.h"
#include "src/bench/go_rand.h"
#include "src/bench/influx_serializer.h"
#include "src/bench/iot_simulator.h"
#include "src/bench/iot_truck.h"
#include "src/bench/simulator.h"

namespace gnomon::bench {
namespace {

constexpr size_t kBufferSize = 4 << 20;

// Accumulates lines and hands them to the file in large writes.
class LineWriter {
 public:
  explicit LineWriter(port::WritableFile* out) : out_(out), buf_(new char[kBufferSize]) {}

  Status Write(const Point& p) {
    const size_t bound = InfluxLineBound(p);
    if (kBufferSize - used_ < bound) GNOMON_RETURN_IF_ERROR(Flush());
    char* end = AppendInfluxLine(p, buf_.get() + used_);
    if (end != buf_.get() + used_) ++stats_.rows_written;
    used_ = static_cast<size_t>(end - buf_.get());
    return Status::OK();
  }

  Status Flush() {
    if (used_ == 0) return Status::OK();
    GNOMON_RETURN_IF_ERROR(out_->Append({buf_.get(), used_}));
    stats_.bytes_written += used_;
    used_ = 0;
    return Status::OK();
  }

  const DataGenStats& stats() const { return stats_; }

 private:
  port::WritableFile* out_;
  std::unique_ptr<char[]> buf_;
  size_t used_ = 0;
  DataGenStats stats_;
};

// TSBS's runSimulator loop: every point the simulator reports as writable is counted for the
// round-robin group assignment; only this group's are serialized.
template <typename Sim>
Status Run(Sim& sim, const DataGenConfig& config, LineWriter* writer) {
  uint64_t group = 0;
  Point point;
  while (!sim.Finished()) {
    point.Reset();
    if (!sim.Next(&point)) continue;
    if (group == config.interleaved_group_id) GNOMON_RETURN_IF_ERROR(writer->Write(point));
    group = (group + 1) % config.interleaved_groups;
  }
  return writer->Flush();
}

}  // namespace

Status ValidateDataGenConfig(const DataGenConfig& c) {
  if (c.use_case != "cpu-only" && c.use_case != "cpu-single" && c.use_case != "devops" &&
      c.use_case != "iot") {
    return Status::InvalidArgument("unknown use case '" + c.use_case +
                                   "' (expected cpu-only, cpu-single, devops or iot)");
  }
  if (c.scale == 0) return Status::InvalidArgument("scale must be > 0");
  if (c.interval_ns <= 0) return Status::InvalidArgument("log interval must be > 0");
  if (c.interleaved_groups == 0) {
    return Status::InvalidArgument("interleaved generation groups must be > 0");
  }
  if (c.interleaved_group_id >= c.interleaved_groups) {
    return Status::InvalidArgument("interleaved generation group id must be < groups");
  }
  return Status::OK();
}

Result<DataGenStats> GenerateData(const DataGenConfig& config, port::WritableFile* out) {
  GNOMON_RETURN_IF_ERROR(ValidateDataGenConfig(config));
  int64_t seed = config.seed;
  if (seed == 0) seed = NowNanos() % kNanosPerSecond;  // TSBS: time's nanosecond-of-second
  GoRand rng(seed);

  SimulationWindow window;
  window.start_ns = config.start_ns;
  window.end_ns = config.end_ns;
  window.interval_ns = config.interval_ns;
  window.initial_scale = config.initial_scale == 0 ? config.scale : config.initial_scale;
  window.max_points = config.max_data_points;

  LineWriter writer(out);
  if (config.use_case == "iot") {
    UniformStep shared_load{0, 5000};
    BaseSimulator base(&rng, NewTrucks(rng, config.scale, config.start_ns, &shared_load), window);
    IotSimulator sim(&rng, &base, kIotMaxFieldCount, kIotTagCount);
    GNOMON_RETURN_IF_ERROR(Run(sim, config, &writer));
  } else {
    std::vector<std::unique_ptr<Generator>> hosts;
    if (config.use_case == "devops") {
      hosts = NewDevopsHosts(rng, config.scale, config.start_ns);
    } else {
      hosts = NewCpuOnlyHosts(rng, config.scale, config.start_ns,
                              config.use_case == "cpu-single" ? 1 : 10);
    }
    BaseSimulator sim(&rng, std::move(hosts), window);
    GNOMON_RETURN_IF_ERROR(Run(sim, config, &writer));
  }
  return writer.stats();
}

}  // namespace gnomon::bench
