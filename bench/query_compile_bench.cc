// What a query costs before it reads a row: parse, bind, optimize, plan physically. The TSBS
// shapes over a 100-host cpu table (10 tags, 10 fields, one row per host), so that the figures
// are the compiler's alone. `build/bench/query_compile_bench`.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <memory>
#include <string>

#include "bench/bench_engine.h"
#include "src/query/influxql/influxql_compiler.h"
#include "src/query/influxql/influxql_parser.h"
#include "src/query/parser/parser.h"
#include "src/query/query_compiler.h"
#include "src/storage/engine.h"
#include "src/server/api/influxql_meta.h"
#include "src/storage/write_batch.h"

namespace gnomon::query {
namespace {

constexpr const char* kFields[10] = {"usage_user", "usage_system", "usage_idle", "usage_nice", "usage_iowait",
                                     "usage_irq", "usage_softirq", "usage_steal", "usage_guest", "usage_guest_nice"};

struct Fixture {
  bench::TempEngine engine{"gnomon-compile-bench"};

  Fixture() {
    storage::WriteBatch batch("db");
    storage::TableBatch* t = batch.Table("cpu");
    for (int h = 0; h < 100; ++h) {
      storage::TagSet tags = {{"hostname", "host_" + std::to_string(h)}, {"region", "r" + std::to_string(h % 9)},
                              {"datacenter", "d" + std::to_string(h % 17)}, {"rack", std::to_string(h % 50)},
                              {"os", "Ubuntu16.04LTS"}, {"arch", "x64"}, {"team", "SF"},
                              {"service", std::to_string(h % 20)}, {"service_version", "1"},
                              {"service_environment", "production"}};
      // A TagSet is sorted by key.
      std::sort(tags.begin(), tags.end(), [](const storage::Tag& a, const storage::Tag& b) { return a.key < b.key; });
      const uint32_t sid = t->AddSeries(tags);
      t->BeginRow(sid, 1686441600000000000LL, 1);
      for (const char* f : kFields) {
        uint32_t id;
        t->FindOrAddField(f, ValueType::kInt64, &id);
        t->AddInt(id, h);
      }
    }
    engine.WriteOrDie(batch);
  }
};

Fixture& Shared() {
  static Fixture f;
  return f;
}

// What /query gives the InfluxQL compiler: the database, now, and the engine's schemas.
influxql::CompileContext InfluxqlContext(storage::Engine* engine) {
  influxql::CompileContext c;
  c.database = "db";
  c.now_ns = 1686528000000000000LL;
  c.schema = [engine](const std::string& d, const std::string& m) { return server::api::LookUpSchema(*engine, d, m); };
  c.measurements = [engine](const std::string& d) { return engine->ListTables(d); };
  return c;
}

void Compile(benchmark::State& state, const char* sql) {
  Fixture& f = Shared();
  for (auto _ : state) {
    auto statement = ParseSql(sql);
    ExecutionContext ctx;
    CompileOptions options;
    options.database = "db";
    options.now_ns = 1686528000000000000LL;
    auto compiled = CompileSelect(f.engine.get(), options, &ctx, *(*statement)->As<SelectStatement>().node, **statement);
    if (!compiled.ok()) state.SkipWithError(compiled.status().ToString().c_str());
    benchmark::DoNotOptimize(compiled);
  }
}

void Parse(benchmark::State& state, const char* sql) {
  for (auto _ : state) {
    auto statement = ParseSql(sql);
    benchmark::DoNotOptimize(statement);
  }
}

// An InfluxQL statement up to the SQL text it compiles to, then that text as Compile() takes it:
// the front end's cost over the SQL twin's.
void CompileInfluxql(benchmark::State& state, const char* influxql) {
  storage::Engine* engine = Shared().engine.get();
  const influxql::CompileContext c = InfluxqlContext(engine);
  for (auto _ : state) {
    auto statements = influxql::ParseQuery(influxql);
    auto selects = influxql::CompileSelect(*(*statements)[0].select, c);
    if (!selects.ok() || selects->empty()) {
      state.SkipWithError("influxql compile failed");
      break;
    }
    auto statement = ParseSql((*selects)[0].sql);
    ExecutionContext ctx;
    CompileOptions options;
    options.database = "db";
    options.now_ns = c.now_ns;
    auto compiled = CompileSelect(engine, options, &ctx, *(*statement)->As<SelectStatement>().node, **statement);
    if (!compiled.ok()) state.SkipWithError(compiled.status().ToString().c_str());
    benchmark::DoNotOptimize(compiled);
  }
}

// The InfluxQL front end alone: parsed, and compiled to SQL text (schema lookup included).
void InfluxqlToSql(benchmark::State& state, const char* influxql) {
  storage::Engine* engine = Shared().engine.get();
  const influxql::CompileContext c = InfluxqlContext(engine);
  const bool compile = state.range(0) != 0;
  for (auto _ : state) {
    auto statements = influxql::ParseQuery(influxql);
    if (compile) {
      auto selects = influxql::CompileSelect(*(*statements)[0].select, c);
      benchmark::DoNotOptimize(selects);
    }
    benchmark::DoNotOptimize(statements);
  }
}

constexpr const char* kCpuMaxAll1 =
    "SELECT max(usage_user),max(usage_system),max(usage_idle),max(usage_nice),max(usage_iowait),max(usage_irq),"
    "max(usage_softirq),max(usage_steal),max(usage_guest),max(usage_guest_nice), date_trunc('hour', time) from cpu "
    "where (hostname = 'host_3') and time >= '2023-06-11T03:17:08Z' and time < '2023-06-11T11:17:08Z' group by "
    "date_trunc('hour', time)";
constexpr const char* kSingleGroupby111 =
    "SELECT max(usage_user), date_trunc('minute', time) from cpu where (hostname = 'host_3') and time >= "
    "'2023-06-11T03:17:08Z' and time < '2023-06-11T04:17:08Z' group by date_trunc('minute', time)";
constexpr const char* kDoubleGroupbyAll =
    "SELECT avg(usage_user), avg(usage_system), avg(usage_idle), avg(usage_nice), avg(usage_iowait), avg(usage_irq), "
    "avg(usage_softirq), avg(usage_steal), avg(usage_guest), avg(usage_guest_nice), date_trunc('hour', time) from "
    "cpu where time >= '2023-06-11T03:17:08Z' and time < '2023-06-11T15:17:08Z' group by date_trunc('hour', time),"
    "hostname";
constexpr const char* kHighCpuAll =
    "SELECT * from cpu where usage_user > 90.0  and time >= '2023-06-11T03:17:08Z' and time < '2023-06-11T15:17:08Z'";

constexpr const char* kSingleGroupby111Influxql =
    "SELECT max(usage_user) from cpu where (hostname = 'host_3') and time >= '2023-06-11T03:17:08Z' and time < "
    "'2023-06-11T04:17:08Z' group by time(1m)";
constexpr const char* kDoubleGroupbyAllInfluxql =
    "SELECT mean(usage_user), mean(usage_system), mean(usage_idle), mean(usage_nice), mean(usage_iowait), "
    "mean(usage_irq), mean(usage_softirq), mean(usage_steal), mean(usage_guest), mean(usage_guest_nice) from cpu "
    "where time >= '2023-06-11T03:17:08Z' and time < '2023-06-11T15:17:08Z' group by time(1h),hostname";

BENCHMARK_CAPTURE(Parse, cpu_max_all_1, kCpuMaxAll1);
BENCHMARK_CAPTURE(Compile, cpu_max_all_1, kCpuMaxAll1);
BENCHMARK_CAPTURE(Compile, single_groupby_1_1_1, kSingleGroupby111);
BENCHMARK_CAPTURE(Compile, double_groupby_all, kDoubleGroupbyAll);
BENCHMARK_CAPTURE(Compile, high_cpu_all, kHighCpuAll);
BENCHMARK_CAPTURE(InfluxqlToSql, single_groupby_1_1_1, kSingleGroupby111Influxql)->Arg(0)->Arg(1);
BENCHMARK_CAPTURE(CompileInfluxql, single_groupby_1_1_1, kSingleGroupby111Influxql);
BENCHMARK_CAPTURE(CompileInfluxql, double_groupby_all, kDoubleGroupbyAllInfluxql);

}  // namespace
}  // namespace gnomon::query

BENCHMARK_MAIN();
