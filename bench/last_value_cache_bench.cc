// The last-value cache's write path: every series' newest row of a batch is offered to it under
// the table's lock, so its cost per row is paid by every writer. Rows of TSBS cpu's shape (ten
// small integer fields) for a fleet of series, each batch newer than the last.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "src/storage/last_value_cache.h"
#include "src/storage/write_batch.h"

namespace gnomon::storage {
namespace {

void BM_OfferNewerRows(benchmark::State& state) {
  const auto series = static_cast<uint32_t>(state.range(0));
  const bool prefetch = state.range(1) != 0;  // as Table::Apply does, a few series ahead
  constexpr int kFields = 10;
  TableBatch batch("cpu");
  std::vector<uint32_t> fields(kFields);
  std::vector<ColumnId> field_ids(kFields);
  for (int f = 0; f < kFields; ++f) {
    batch.FindOrAddField("usage_" + std::to_string(f), ValueType::kInt64, &fields[f]);
    field_ids[f] = static_cast<ColumnId>(f);
  }
  const uint32_t key = batch.AddSeries({{"hostname", "host_0"}});
  std::mt19937_64 rng(42);
  for (uint32_t s = 0; s < series; ++s) {
    batch.BeginRow(key, 0, s);
    for (int f = 0; f < kFields; ++f) batch.AddInt(fields[f], static_cast<int64_t>(rng() % 101));
  }
  // Series in a shuffled order, as writers' batches mix hosts.
  std::vector<SeriesId> ids(series);
  for (uint32_t s = 0; s < series; ++s) ids[s] = s;
  std::shuffle(ids.begin(), ids.end(), rng);
  LastValueCache cache;
  int64_t time = 1;
  for (auto _ : state) {
    for (uint32_t s = 0; s < series; ++s) {
      if (prefetch && s + 8 < series) cache.Prefetch(ids[s + 8]);
      cache.Offer(ids[s], time, batch, batch.rows()[s], field_ids);
    }
    ++time;
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) * series);
}
BENCHMARK(BM_OfferNewerRows)->ArgsProduct({{1000, 100000, 1000000}, {0, 1}});

}  // namespace
}  // namespace gnomon::storage

