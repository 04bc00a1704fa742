// WAL append throughput on the real POSIX Env (a directory under /tmp, or $GNOMON_BENCH_DIR):
// records/s and bytes/s with and without fsync, 1 and 8 appending threads, and how many records
// each fsync carried (group commit). Run:
//   build/bench/wal_bench --benchmark_filter=BM_WalAppend
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <memory>
#include <string>

#include "src/port/env.h"
#include "src/wal/replay.h"
#include "src/wal/wal.h"

namespace gnomon::wal {
namespace {

std::string BenchDir() {
  const char* base = std::getenv("GNOMON_BENCH_DIR");
  return std::string(base != nullptr ? base : "/tmp") + "/gnomon_wal_bench_" +
         std::to_string(::getpid());
}

// Shared by the threads of one benchmark run; set up and torn down by thread 0 (the benchmark
// loop's start and end are barriers).
std::unique_ptr<Wal> g_wal;

void BM_WalAppend(benchmark::State& state) {
  const size_t record_size = static_cast<size_t>(state.range(0));
  const bool sync = state.range(1) != 0;
  port::Env* env = port::Env::Default();
  const std::string dir = BenchDir();
  if (state.thread_index() == 0) {
    (void)env->RemoveDirRecursive(dir);
    WalOptions options;
    options.dir = dir;
    auto wal = Wal::Open(options);
    if (!wal.ok()) {
      state.SkipWithError(wal.status().ToString().c_str());
      return;
    }
    g_wal = std::move(*wal);
  }
  std::string record(record_size, 'x');
  for (size_t i = 0; i < record.size(); ++i) record[i] = static_cast<char>(i * 131 + 7);
  uint64_t n = 0;
  for (auto _ : state) {
    auto lsn = g_wal->Append(record, sync);
    if (!lsn.ok()) {
      state.SkipWithError(lsn.status().ToString().c_str());
      break;
    }
    // Keep the no-sync runs from filling the disk: drop segments now and then.
    if (state.thread_index() == 0 && (++n & 0xfff) == 0 && g_wal->TotalBytes() > (1ull << 30)) {
      (void)g_wal->RemoveSegmentsBefore(g_wal->current_segment());
    }
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()));
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * record_size));
  if (state.thread_index() == 0) {
    (void)g_wal->Close();
    WalStats stats = g_wal->Stats();
    state.counters["records_per_group"] = static_cast<double>(stats.records) /
                                          static_cast<double>(std::max<uint64_t>(stats.groups, 1));
    state.counters["records_per_sync"] = static_cast<double>(stats.records) /
                                         static_cast<double>(std::max<uint64_t>(stats.syncs, 1));
    g_wal.reset();
    (void)env->RemoveDirRecursive(dir);
  }
}

void AppendArgs(benchmark::internal::Benchmark* b) {
  b->ArgNames({"bytes", "sync"});
  for (int64_t sync : {0, 1}) {
    for (int64_t size : {128, 4096, 65536}) b->Args({size, sync});
  }
  b->Threads(1)->Threads(8)->UseRealTime();
}
BENCHMARK(BM_WalAppend)->Apply(AppendArgs);

// Replay speed over a 256 MiB log of 4 KiB records (read, checksum, reassemble).
void BM_WalReplay(benchmark::State& state) {
  port::Env* env = port::Env::Default();
  const std::string dir = BenchDir() + "_replay";
  (void)env->RemoveDirRecursive(dir);
  const size_t record_size = static_cast<size_t>(state.range(0));
  const uint64_t total = 256ull << 20;
  {
    WalOptions options;
    options.dir = dir;
    auto wal = Wal::Open(options);
    if (!wal.ok()) {
      state.SkipWithError(wal.status().ToString().c_str());
      return;
    }
    std::string record(record_size, 'r');
    for (uint64_t written = 0; written < total; written += record_size) {
      (void)(*wal)->Append(record, false);
    }
    (void)(*wal)->Close();
  }
  uint64_t bytes = 0;
  for (auto _ : state) {
    auto report = ReplayWal(env, dir, [](std::string_view r) {
      benchmark::DoNotOptimize(r.data());
      return Status::OK();
    });
    if (!report.ok()) {
      state.SkipWithError(report.status().ToString().c_str());
      break;
    }
    bytes += report->bytes;
  }
  state.SetBytesProcessed(static_cast<int64_t>(bytes));
  (void)env->RemoveDirRecursive(dir);
}
BENCHMARK(BM_WalReplay)->Arg(4096)->Arg(1 << 20)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace gnomon::wal
