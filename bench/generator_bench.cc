// TSBS data generator throughput: rows/s and bytes/s of Influx line protocol per use case, generated
// into memory (no I/O), single thread. `gnomon bench generate-data ... > /dev/null` measures the same
// end to end.
#include <benchmark/benchmark.h>

#include "src/bench/data_generator.h"
#include "src/bench/go_rand.h"

namespace gnomon::bench {
namespace {

// Counts bytes and discards them.
class NullFile final : public port::WritableFile {
 public:
  Status Append(std::string_view data) override {
    size_ += data.size();
    return Status::OK();
  }
  Status Flush() override { return Status::OK(); }
  Status Sync() override { return Status::OK(); }
  Status Close() override { return Status::OK(); }
  uint64_t Size() const override { return size_; }

 private:
  uint64_t size_ = 0;
};

void BM_Generate(benchmark::State& state, const char* use_case, uint64_t scale) {
  DataGenConfig c;
  c.use_case = use_case;
  c.scale = scale;
  c.seed = 123;
  c.start_ns = 1686441600000000000;
  c.end_ns = c.start_ns + 6 * 3600 * int64_t{1000000000};  // 6 hours
  c.interval_ns = 10 * int64_t{1000000000};
  uint64_t rows = 0, bytes = 0;
  for (auto _ : state) {
    NullFile out;
    auto stats = GenerateData(c, &out);
    if (!stats.ok()) {
      state.SkipWithError(stats.status().ToString().c_str());
      return;
    }
    rows += stats->rows_written;
    bytes += stats->bytes_written;
  }
  state.counters["rows/s"] = benchmark::Counter(static_cast<double>(rows), benchmark::Counter::kIsRate);
  state.SetBytesProcessed(static_cast<int64_t>(bytes));
}
BENCHMARK_CAPTURE(BM_Generate, cpu_only_s100, "cpu-only", 100)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Generate, devops_s10, "devops", 10)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Generate, iot_s100, "iot", 100)->Unit(benchmark::kMillisecond);

void BM_NormFloat64(benchmark::State& state) {
  GoRand r(123);
  for (auto _ : state) benchmark::DoNotOptimize(r.NormFloat64());
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_NormFloat64);

}  // namespace
}  // namespace gnomon::bench
