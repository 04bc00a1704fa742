// Fuzz target for the whole query path past the parser: binder, optimizer rules, physical
// planner and operators, over a small fixed table (two tags, an int, a float and a string field,
// memtable and segment rows). Any SELECT or EXPLAIN must end as a result or a Status, within the
// query limits, never a crash or a failed check; other statements are skipped so that the table
// stays the same for every input.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <unistd.h>

#include "src/query/parser/parser.h"
#include "src/query/query_engine.h"
#include "src/storage/engine.h"
#include "src/storage/write_batch.h"

namespace {

using namespace gnomon;

class DiscardSink final : public query::ResultSink {
 public:
  Status Begin(const std::vector<query::ResultColumn>&) override { return Status::OK(); }
  Status Chunk(const query::ResultChunk&) override { return Status::OK(); }
  Status End(const query::QueryStats&) override { return Status::OK(); }
};

struct Fixture {
  std::string dir;
  std::unique_ptr<storage::Engine> engine;
  std::unique_ptr<query::QueryEngine> query;

  Fixture() {
    dir = (std::filesystem::temp_directory_path() / ("gnomon-query-fuzz-" + std::to_string(getpid()))).string();
    std::filesystem::remove_all(dir);
    storage::EngineOptions options;
    options.data_dir = dir;
    options.background_work = false;
    engine = std::move(storage::Engine::Open(options)).value();
    // Rows 0-29 of each series flushed into a segment; rows 30-349 left in memory, written as
    // eight batches of 40 applied out of turn (1, 0, 3, 2, ...), which leaves each series eight
    // pages in one hour: the memtable's page statistics, merged hours and kept page orders.
    for (int part = 0; part < 9; ++part) {
      const int chunk = part == 0 ? 0 : part % 2 == 1 ? part : part - 2;  // 1, 0, 3, 2, ...
      const int first = part == 0 ? 0 : 30 + chunk * 40, rows = part == 0 ? 30 : 40;
      storage::WriteBatch batch("db");
      storage::TableBatch* t = batch.Table("cpu");
      for (int h = 0; h < 4; ++h) {
        storage::TagSet tags = {{"hostname", "host_" + std::to_string(h)}};
        if (h % 2 == 0) tags.push_back({"region", h == 0 ? "eu" : "us"});
        const uint32_t sid = t->AddSeries(tags);
        for (int i = first; i < first + rows; ++i) {
          t->BeginRow(sid, 1686441600000000000LL + i * 10000000000LL, 1);
          uint32_t f;
          t->FindOrAddField("u", ValueType::kInt64, &f);
          t->AddInt(f, h * 100 + i - 7);
          if (i % 3 != 0) {
            t->FindOrAddField("f", ValueType::kFloat64, &f);
            t->AddFloat(f, h + i * 0.5);
          }
          if (i % 5 == 0) {
            t->FindOrAddField("s", ValueType::kString, &f);
            t->AddString(f, "v" + std::to_string(i));
          }
        }
      }
      if (!engine->Write(batch, {}).ok()) std::abort();
      if (part == 0 && !engine->Flush().ok()) std::abort();
    }
    query::QueryEngineOptions qopts;
    qopts.worker_threads = 2;
    query = query::QueryEngine::Create(engine.get(), qopts);
  }
};

Fixture& Shared() {
  static Fixture* f = new Fixture();  // lives for the process: libFuzzer never returns
  return *f;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view input(reinterpret_cast<const char*>(data), size);
  auto statement = query::ParseSql(input);
  if (!statement.ok()) return 0;
  const auto type = (*statement)->type;
  if (type != query::StatementType::kSelect && type != query::StatementType::kExplain) return 0;
  Fixture& f = Shared();
  query::QueryOptions options;
  options.database = "db";
  options.now_ns = 1686442800000000000LL;
  options.timeout_ms = 2000;
  options.memory_limit_bytes = 64 << 20;
  options.max_result_rows = 100000;
  DiscardSink sink;
  (void)f.query->Execute(input, options, &sink);
  return 0;
}
