// The loader's scanner: how fast `gnomon bench load` cuts TSBS line protocol into counted batches
// (one core, no network). It must stay far above any server's ingest rate (> 1 M rows/s).
#include <benchmark/benchmark.h>

#include <string>

#include "src/bench/data_generator.h"
#include "src/bench/line_batcher.h"

namespace gnomon::bench {
namespace {

class StringSink final : public port::WritableFile {
 public:
  Status Append(std::string_view data) override {
    data_.append(data);
    return Status::OK();
  }
  Status Flush() override { return Status::OK(); }
  Status Sync() override { return Status::OK(); }
  Status Close() override { return Status::OK(); }
  uint64_t Size() const override { return data_.size(); }
  std::string data_;
};

const std::string& Data(const char* use_case, uint64_t scale) {
  static std::string cache[2];
  std::string& data = cache[std::string(use_case) == "devops" ? 1 : 0];
  if (data.empty()) {
    DataGenConfig c;
    c.use_case = use_case;
    c.scale = scale;
    c.seed = 123;
    c.start_ns = 1686441600000000000;
    c.end_ns = c.start_ns + 2 * 3600 * int64_t{1000000000};
    c.interval_ns = 10 * int64_t{1000000000};
    StringSink sink;
    (void)GenerateData(c, &sink);
    data = std::move(sink.data_);
  }
  return data;
}

void BM_LineBatcher(benchmark::State& state, const char* use_case, uint64_t scale) {
  const std::string& data = Data(use_case, scale);
  const size_t piece = 4 << 20;  // the loader's read size
  uint64_t rows = 0;
  for (auto _ : state) {
    LineBatcher batcher(10000, [&](LineBatch&& b) {
      rows += b.counts.rows;
      benchmark::DoNotOptimize(b.body.data());
      return Status::OK();
    });
    for (size_t pos = 0; pos < data.size(); pos += piece) {
      (void)batcher.Add(std::string_view(data).substr(pos, piece));
    }
    (void)batcher.Finish();
  }
  state.counters["rows/s"] = benchmark::Counter(static_cast<double>(rows), benchmark::Counter::kIsRate);
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * data.size()));
}
BENCHMARK_CAPTURE(BM_LineBatcher, cpu_only_s100, "cpu-only", 100)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_LineBatcher, devops_s10, "devops", 10)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace gnomon::bench
