// ScanOperator: reads a table through storage::TableReader, series by series, producing chunks
// with the time column, tag columns and field columns the query needs.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "src/query/execution/operator.h"
#include "src/query/planner/bound_expression.h"
#include "src/storage/scan.h"

namespace gnomon::query {

struct ScanColumn {
  enum class Kind : uint8_t { kTime, kTag, kField } kind;
  std::string name;
  ValueType type;
};

class ScanOperator final : public Operator {
 public:
  // `spec.series` lists the series to read (in order); spec.columns is filled from `columns`.
  // per_series_limit > 0 stops each series after that many rows (ORDER BY time DESC LIMIT n).
  ScanOperator(std::shared_ptr<storage::TableReader> reader, std::string table,
               std::vector<ScanColumn> columns, storage::ScanSpec spec, ExecutionContext* ctx,
               size_t per_series_limit, std::string pushdown_note);
  // Evaluates `predicate` (bound against this operator's columns, using no tag column) on each
  // batch before tag values are materialised, keeping only the rows where it is true.
  void SetPrefilter(BoundExprPtr predicate, std::string text) {
    prefilter_ = std::move(predicate);
    prefilter_text_ = std::move(text);
  }
  std::string Describe() const override;

 protected:
  Status NextImpl(Chunk* chunk, bool* done) override;

 private:
  class Consumer;
  std::shared_ptr<storage::TableReader> reader_;
  std::string table_;
  std::vector<ScanColumn> columns_;
  storage::ScanSpec spec_;
  ExecutionContext* ctx_;
  size_t per_series_limit_;
  std::string pushdown_note_;
  BoundExprPtr prefilter_;
  std::string prefilter_text_;
  size_t next_series_ = 0;
};

}  // namespace gnomon::query
