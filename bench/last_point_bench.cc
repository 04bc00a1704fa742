// Last-point queries over a fleet, in process: TSBS's lastpoint shape (InfluxQL-style
// last_value per host of 10 tags and 10 fields) over 4,000 hosts answered from the last-value
// cache, once into a sink that only counts (the engine's share) and once rendered as the HTTP
// API's JSON (what a client waits for). `build/bench/last_point_bench`.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <memory>
#include <string>

#include "bench/bench_engine.h"
#include "src/query/query_engine.h"
#include "src/server/api/result_writer.h"
#include "src/storage/engine.h"
#include "src/storage/write_batch.h"

namespace gnomon::query {
namespace {

constexpr int kHosts = 4000;
constexpr const char* kFields[10] = {"usage_user", "usage_system", "usage_idle", "usage_nice", "usage_iowait",
                                     "usage_irq", "usage_softirq", "usage_steal", "usage_guest", "usage_guest_nice"};
constexpr const char* kRegions[3] = {"us-east-1", "eu-central-1", "ap-southeast-2"};

struct Fixture {
  bench::TempEngine engine{"gnomon-lastpoint-bench"};
  std::unique_ptr<QueryEngine> queries;

  Fixture() {
    storage::WriteBatch batch("db");
    storage::TableBatch* t = batch.Table("cpu");
    for (int h = 0; h < kHosts; ++h) {
      const std::string region = kRegions[h % 3];
      storage::TagSet tags = {{"hostname", "host_" + std::to_string(h)}, {"region", region},
                              {"datacenter", region + static_cast<char>('a' + h % 3)}, {"rack", std::to_string(h % 100)},
                              {"os", "Ubuntu16.04LTS"}, {"arch", h % 2 ? "x64" : "x86"}, {"team", "CHI"},
                              {"service", std::to_string(h % 20)}, {"service_version", std::to_string(h % 2)},
                              {"service_environment", h % 3 ? "production" : "staging"}};
      std::sort(tags.begin(), tags.end(), [](const storage::Tag& a, const storage::Tag& b) { return a.key < b.key; });
      const uint32_t sid = t->AddSeries(tags);
      for (int r = 0; r < 3; ++r) {
        t->BeginRow(sid, 1686441600000000000LL + r * 10000000000LL, 10);
        for (int f = 0; f < 10; ++f) {
          uint32_t id;
          t->FindOrAddField(kFields[f], ValueType::kFloat64, &id);
          t->AddFloat(id, (h * 7 + f * 13 + r) % 1000 / 10.0);
        }
      }
    }
    engine.WriteOrDie(batch);
    queries = QueryEngine::Create(engine.get(), QueryEngineOptions{});
  }
};

Fixture& Shared() {
  static Fixture f;
  return f;
}

std::string LastPointSql() {
  std::string sql = "SELECT ";
  const char* tags[10] = {"hostname", "region", "datacenter", "rack", "os", "arch", "team", "service",
                          "service_version", "service_environment"};
  for (const char* t : tags) sql += std::string("last_value(") + t + " ORDER BY time), ";
  for (const char* f : kFields) sql += std::string("last_value(") + f + " ORDER BY time), ";
  sql.resize(sql.size() - 2);
  return sql + " FROM cpu GROUP BY hostname";
}

class CountingSink final : public ResultSink {
 public:
  Status Begin(const std::vector<ResultColumn>&) override { return Status::OK(); }
  Status Chunk(const ResultChunk& chunk) override {
    rows += chunk.rows;
    return Status::OK();
  }
  Status End(const QueryStats&) override { return Status::OK(); }
  size_t rows = 0;
};

void BM_LastPointEngine(benchmark::State& state) {
  Fixture& f = Shared();
  const std::string sql = LastPointSql();
  QueryOptions options;
  options.database = "db";
  for (auto _ : state) {
    CountingSink sink;
    Status s = f.queries->Execute(sql, options, &sink);
    if (!s.ok() || sink.rows != kHosts) state.SkipWithError(s.ToString().c_str());
  }
  state.SetItemsProcessed(state.iterations() * kHosts);
}
BENCHMARK(BM_LastPointEngine)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_LastPointJson(benchmark::State& state) {
  Fixture& f = Shared();
  const std::string sql = LastPointSql();
  QueryOptions options;
  options.database = "db";
  std::string out;
  for (auto _ : state) {
    out.clear();
    // Large chunks render in halves on the engine's helpers, as the SQL endpoint has them.
    server::api::ResultWriter writer(server::api::ResultFormat::kJson, server::api::EpochUnit::kNone, &out,
                                     f.queries->pool());
    Status s = f.queries->Execute(sql, options, &writer);
    if (!s.ok() || writer.rows() != kHosts) state.SkipWithError(s.ToString().c_str());
  }
  state.counters["bytes"] = static_cast<double>(out.size());
}
BENCHMARK(BM_LastPointJson)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
}  // namespace gnomon::query

BENCHMARK_MAIN();
