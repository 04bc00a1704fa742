// TsbsCpuStore: TSBS's cpu-only data set (cpu-only-s100-1d, 864,000 lines, generated in process:
// byte-identical to TSBS's, test/testdata/tsbs/README.md)
// in a Gnomon storage engine in a temporary directory, written the way the server's write path
// does it (server::ParseLineProtocol into a WriteBatch, then Engine::Write), plus a way to run SQL
// over it and keep the typed answer.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "src/base/result.h"
#include "src/bench/input_source.h"
#include "src/query/execution/value.h"
#include "src/query/query_engine.h"
#include "src/storage/engine.h"

namespace gnomon::acceptance {

// Where the rows sit when the queries run.
enum class StoreLayout {
  // Everything flushed: 6-hour partitions, a flush every 100,000 rows (so partitions hold several
  // segments whose bounds do not line up with the partitions'), nothing left in memtables.
  kSegments,
  // One 24-hour partition: the first 18 hours flushed to one segment, the last 6 hours still in
  // the memtable (readers merge both).
  kSegmentsAndMemtables,
};
const char* StoreLayoutName(StoreLayout layout);

// A typed answer, columnar: column names and types as the engine reported them, and each
// column's values (all chunks concatenated) in a vector of that type.
struct QueryAnswer {
  std::vector<query::ResultColumn> columns;
  std::vector<query::ResultVector> data;  // one per column, `rows` long
  size_t rows = 0;

  query::Value Get(size_t row, size_t column) const { return query::GetValue(data[column], row); }
};

class TsbsCpuStore {
 public:
  static constexpr const char* kDatabase = "benchmark";  // TSBS's default database name

  static constexpr const char* kDataSet = "cpu-only-s100-1d";

  // Generates the data set and writes it in 10,000-line write batches. Errors: a line is rejected
  // by the parser (with its line number), a write or flush fails.
  static Result<std::unique_ptr<TsbsCpuStore>> Load(StoreLayout layout);
  ~TsbsCpuStore();

  // Runs one statement against kDatabase with a fixed now() (the data set's end).
  Result<QueryAnswer> Run(const std::string& sql);

  uint64_t rows_loaded() const { return rows_loaded_; }
  // Segment files and memtable bytes, to check that the layout is what it claims.
  storage::EngineStats EngineStats() { return engine_->Stats(); }
  StoreLayout layout() const { return layout_; }

 private:
  TsbsCpuStore() = default;
  Status LoadFile(bench::ByteSource* input);

  StoreLayout layout_ = StoreLayout::kSegments;
  std::string dir_;
  std::unique_ptr<storage::Engine> engine_;
  std::unique_ptr<query::QueryEngine> query_;
  uint64_t rows_loaded_ = 0;
};

}  // namespace gnomon::acceptance
