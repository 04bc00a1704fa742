// Series registry micro-benchmarks: GetOrCreate hit/miss rates, memory and snapshot bytes per
// series, checkpoint and reopen times, tag look-ups. TSBS-like tag sets: 10 tags, values from
// small pools plus a unique hostname.
//   build-index/bench/index_bench --benchmark_counters_tabular=true
#include <benchmark/benchmark.h>
#include <malloc.h>
#include <unistd.h>

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "src/index/series_registry.h"
#include "src/port/env.h"

namespace gnomon::index {
namespace {

// One series' tags, owned, in canonical (key-sorted) order.
struct HostSeries {
  std::vector<std::pair<std::string, std::string>> tags;
  std::vector<TagRef> refs;
};

HostSeries MakeHost(uint32_t i) {
  static const char* kRegions[] = {"us-east-1", "us-west-1", "us-west-2", "eu-west-1", "eu-central-1",
                                   "ap-southeast-1", "ap-southeast-2", "ap-northeast-1", "sa-east-1"};
  static const char* kOs[] = {"Ubuntu16.10", "Ubuntu16.04LTS", "Ubuntu15.10"};
  static const char* kTeam[] = {"SF", "NYC", "LON", "CHI"};
  static const char* kEnv[] = {"production", "staging", "test"};
  uint64_t x = i * 0x9e3779b97f4a7c15ull;  // deterministic spread over the pools
  auto pick = [&](uint64_t n) { x = x * 6364136223846793005ull + 1442695040888963407ull; return (x >> 33) % n; };
  HostSeries s;
  std::string region = kRegions[pick(9)];
  s.tags = {{"arch", pick(2) ? "x64" : "x86"},
            {"datacenter", region + (pick(3) == 0 ? "a" : pick(2) ? "b" : "c")},
            {"hostname", "host_" + std::to_string(i)},
            {"os", kOs[pick(3)]},
            {"rack", std::to_string(pick(100))},
            {"region", region},
            {"service", std::to_string(pick(20))},
            {"service_environment", kEnv[pick(3)]},
            {"service_version", std::to_string(pick(2))},
            {"team", kTeam[pick(4)]}};
  for (const auto& [k, v] : s.tags) s.refs.push_back({k, v});
  return s;
}

std::vector<HostSeries> MakeHosts(uint32_t n, uint32_t first = 0) {
  std::vector<HostSeries> out;
  out.reserve(n);
  for (uint32_t i = 0; i < n; ++i) out.push_back(MakeHost(first + i));
  for (auto& s : out) {  // re-point views after the vector settled
    s.refs.clear();
    for (const auto& [k, v] : s.tags) s.refs.push_back({k, v});
  }
  return out;
}

std::string BenchDir(const char* name) {
  std::string dir = (std::filesystem::temp_directory_path() /
                     ("gnomon_index_bench_" + std::to_string(::getpid()) + "_" + name)).string();
  (void)port::Env::Default()->RemoveDirRecursive(dir);
  return dir;
}

std::unique_ptr<SeriesRegistry> OpenFresh(const std::string& dir) {
  (void)port::Env::Default()->RemoveDirRecursive(dir);
  return std::move(SeriesRegistry::Open(port::Env::Default(), dir)).value();
}

constexpr uint32_t kSeries = 100000;

void BM_GetOrCreateHit(benchmark::State& state) {
  const bool prehashed = state.range(0) != 0;
  std::string dir = BenchDir("hit");
  auto reg = OpenFresh(dir);
  auto hosts = MakeHosts(kSeries);
  std::vector<uint64_t> hashes;
  for (const auto& h : hosts) {
    hashes.push_back(HashSeriesKey(h.refs));
    (void)reg->GetOrCreate(h.refs);
  }
  size_t i = 0;
  for (auto _ : state) {
    auto id = prehashed ? reg->GetOrCreate(hashes[i], hosts[i].refs) : reg->GetOrCreate(hosts[i].refs);
    benchmark::DoNotOptimize(id);
    if (++i == hosts.size()) i = 0;
  }
  state.SetItemsProcessed(state.iterations());
  state.SetLabel(prehashed ? "hash given" : "hash computed");
  reg.reset();
  (void)port::Env::Default()->RemoveDirRecursive(dir);
}
BENCHMARK(BM_GetOrCreateHit)->Arg(0)->Arg(1);

void BM_GetOrCreateMiss(benchmark::State& state) {
  std::string dir = BenchDir("miss");
  std::unique_ptr<SeriesRegistry> reg;
  std::vector<HostSeries> hosts;
  size_t i = 0;
  for (auto _ : state) {
    if (i == hosts.size()) {  // a fresh registry and batch every kSeries creations
      state.PauseTiming();
      reg = OpenFresh(dir);
      hosts = MakeHosts(kSeries);
      i = 0;
      state.ResumeTiming();
    }
    auto id = reg->GetOrCreate(hosts[i++].refs);
    benchmark::DoNotOptimize(id);
  }
  state.SetItemsProcessed(state.iterations());
  reg.reset();
  (void)port::Env::Default()->RemoveDirRecursive(dir);
}
BENCHMARK(BM_GetOrCreateMiss)->Iterations(kSeries);

// Memory per series (registry's own count and malloc's), log and snapshot bytes per series,
// checkpoint and reopen times, for state.range(0) series.
void BM_Footprint(benchmark::State& state) {
  const auto n = static_cast<uint32_t>(state.range(0));
  std::string dir = BenchDir("footprint");
  for (auto _ : state) {
    auto hosts = MakeHosts(n);
    malloc_trim(0);
    size_t heap_before = mallinfo2().uordblks;
    auto reg = OpenFresh(dir);
    for (const auto& h : hosts) (void)reg->GetOrCreate(h.refs);
    if (!reg->Sync().ok()) state.SkipWithError("sync failed");
    size_t heap = mallinfo2().uordblks - heap_before;
    state.counters["heap_B_per_series"] = static_cast<double>(heap) / n;
    state.counters["accounted_B_per_series"] = static_cast<double>(reg->MemoryUsage()) / n;
    auto* env = port::Env::Default();
    state.counters["log_B_per_series"] =
        static_cast<double>(*env->GetFileSize(port::JoinPath(dir, kSeriesLogName))) / n;

    auto t0 = std::chrono::steady_clock::now();
    reg.reset();
    reg = std::move(SeriesRegistry::Open(env, dir)).value();
    auto t1 = std::chrono::steady_clock::now();
    if (!reg->Checkpoint().ok()) state.SkipWithError("checkpoint failed");
    auto t2 = std::chrono::steady_clock::now();
    reg.reset();
    reg = std::move(SeriesRegistry::Open(env, dir)).value();
    auto t3 = std::chrono::steady_clock::now();
    state.counters["snap_B_per_series"] =
        static_cast<double>(*env->GetFileSize(port::JoinPath(dir, kSeriesSnapshotName))) / n;
    auto ms = [](auto a, auto b) { return std::chrono::duration<double, std::milli>(b - a).count(); };
    state.counters["reopen_log_ms"] = ms(t0, t1);
    state.counters["checkpoint_ms"] = ms(t1, t2);
    state.counters["reopen_snap_ms"] = ms(t2, t3);
    if (reg->size() != n) state.SkipWithError("lost series");
  }
  (void)port::Env::Default()->RemoveDirRecursive(dir);
}
BENCHMARK(BM_Footprint)->Arg(4000)->Arg(100000)->Arg(1000000)->Iterations(1)->Unit(benchmark::kMillisecond);

void BM_SeriesWithTag(benchmark::State& state) {
  std::string dir = BenchDir("postings");
  auto reg = OpenFresh(dir);
  for (const auto& h : MakeHosts(kSeries)) (void)reg->GetOrCreate(h.refs);
  uint64_t ids = 0;
  for (auto _ : state) {
    Roaring r = reg->SeriesWithTag("region", "eu-west-1");
    ids += r.cardinality();
    benchmark::DoNotOptimize(r);
  }
  state.counters["ids_per_call"] = static_cast<double>(ids) / state.iterations();
  reg.reset();
  (void)port::Env::Default()->RemoveDirRecursive(dir);
}
BENCHMARK(BM_SeriesWithTag);

void BM_TagsAndTagValue(benchmark::State& state) {
  std::string dir = BenchDir("tags");
  auto reg = OpenFresh(dir);
  for (const auto& h : MakeHosts(kSeries)) (void)reg->GetOrCreate(h.refs);
  SeriesId id = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(reg->TagValue(id, "rack"));
    for (TagRef t : reg->Tags(id)) benchmark::DoNotOptimize(t);
    id = (id + 7919) % kSeries;
  }
  state.SetItemsProcessed(state.iterations());
  reg.reset();
  (void)port::Env::Default()->RemoveDirRecursive(dir);
}
BENCHMARK(BM_TagsAndTagValue);

}  // namespace
}  // namespace gnomon::index
