// Formatting result doubles: FormatDouble against std::to_chars, whose bytes it reproduces, on
// what a TSBS double-groupby answer is made of (averages of up to 360 values in [0, 100]) and on
// arbitrary finite doubles.
#include <benchmark/benchmark.h>

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "src/base/double_format.h"

namespace {

const std::vector<double>& Averages() {
  static const std::vector<double> values = [] {
    std::mt19937_64 rng(1);
    std::vector<double> v;
    for (int i = 0; i < 1 << 16; ++i) {
      const int64_t count = 360;
      const int64_t sum = static_cast<int64_t>(rng() % (100 * count + 1));
      v.push_back(static_cast<double>(sum) / static_cast<double>(count));
    }
    return v;
  }();
  return values;
}

const std::vector<double>& AnyDoubles() {
  static const std::vector<double> values = [] {
    std::mt19937_64 rng(2);
    std::vector<double> v;
    while (v.size() < (1u << 16)) {
      const uint64_t bits = rng();
      double d;
      std::memcpy(&d, &bits, 8);
      if (std::isfinite(d)) v.push_back(d);
    }
    return v;
  }();
  return values;
}

template <bool kOurs>
void Format(benchmark::State& state, const std::vector<double>& values) {
  char buf[gnomon::kDoubleFormatRoom + 8];
  size_t bytes = 0;
  for (auto _ : state) {
    for (double d : values) {
      char* end = kOurs ? gnomon::FormatDouble(buf, d) : std::to_chars(buf, buf + sizeof(buf), d).ptr;
      bytes += static_cast<size_t>(end - buf);
      benchmark::DoNotOptimize(buf);
    }
  }
  benchmark::DoNotOptimize(bytes);
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * values.size()));
}

void BM_FormatDoubleAverages(benchmark::State& state) { Format<true>(state, Averages()); }
void BM_ToCharsAverages(benchmark::State& state) { Format<false>(state, Averages()); }
void BM_FormatDoubleAny(benchmark::State& state) { Format<true>(state, AnyDoubles()); }
void BM_ToCharsAny(benchmark::State& state) { Format<false>(state, AnyDoubles()); }
BENCHMARK(BM_FormatDoubleAverages);
BENCHMARK(BM_ToCharsAverages);
BENCHMARK(BM_FormatDoubleAny);
BENCHMARK(BM_ToCharsAny);

}  // namespace

BENCHMARK_MAIN();
