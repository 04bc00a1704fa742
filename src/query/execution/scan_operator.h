// ScanOperator: reads a table through storage::TableReader, series by series, producing chunks
// with the time column, tag columns and field columns the query needs.
//
// With ExecutionContext::threads > 1 and enough series, background threads scan the series
// (one series per task, a bounded window of tasks ahead of the consumer) while the caller renders
// what is ready; chunks still come out in series order, exactly as a serial scan's rows.
#pragma once

#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "src/query/execution/operator.h"
#include "src/query/binder/bound_expression.h"
#include "src/storage/scan.h"

namespace gnomon::query {

struct ScanColumn {
  enum class Kind : uint8_t { kTime, kTag, kField } kind;
  std::string name;
  ValueType type;
};

// Every column of a table, in the table's order, as a scan reads them.
std::vector<ScanColumn> ScanColumnsOf(const storage::TableInfo& info);

// When `reader` is a projection of plain columns (SELECT * and column lists) straight over a
// scan, lets the scan send its tag columns as constant vectors: nothing in between reads them.
// For a reader that handles them (a sink that AcceptsConstantVectors(), a sort).
void AllowConstantTags(Operator* reader);

class ScanOperator final : public Operator {
 public:
  // `spec.series` lists the series to read (in order); spec.columns is filled from `columns`.
  // per_series_limit > 0 stops each series after that many rows (ORDER BY time DESC LIMIT n).
  ScanOperator(std::shared_ptr<storage::TableReader> reader, std::string table,
               std::vector<ScanColumn> columns, storage::ScanSpec spec, ExecutionContext* ctx,
               size_t per_series_limit, std::string pushdown_note);
  // Evaluates `predicate` (bound against this operator's columns, using no tag column) on each
  // batch before tag values are materialised, keeping only the rows where it is true.
  // A comparison of a numeric field with a constant among its AND terms also goes to storage as a
  // ScanPredicate, so stored blocks decode other columns only around rows that may pass.
  void SetPrefilter(BoundExprPtr predicate, std::string text);
  // Tag columns of chunks that hold one series (the parallel scan's) come as constant vectors
  // (ResultVector::constant). Only for a consumer that handles them.
  void SetConstantTags(bool on) { constant_tags_ = on; }
  ~ScanOperator() override;
  std::string Describe() const override;

 protected:
  Status NextImpl(Chunk* chunk, bool* done) override;

 private:
  class Consumer;
  struct Parallel;
  // Scans spec_.series[index] into `out` (columns already initialised).
  Status ScanOne(size_t index, Consumer* consumer, storage::ScanMetrics* metrics) const;
  Status NextParallel(Chunk* chunk, bool* done);
  void InitChunk(Chunk* chunk) const;
  void AddMetrics(const storage::ScanMetrics& metrics);
  std::shared_ptr<storage::TableReader> reader_;
  std::string table_;
  std::vector<ScanColumn> columns_;
  storage::ScanSpec spec_;
  ExecutionContext* ctx_;
  size_t per_series_limit_;
  std::string pushdown_note_;
  BoundExprPtr prefilter_;
  std::string prefilter_text_;
  bool constant_tags_ = false;
  size_t next_series_ = 0;
  std::atomic<bool> stop_{false};  // set when the operator goes away: background scans end
  std::unique_ptr<Parallel> parallel_;
  bool started_ = false;
};

}  // namespace gnomon::query
