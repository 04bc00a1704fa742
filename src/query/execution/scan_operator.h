// ScanOperator: reads a table through storage::TableReader, series by series, producing chunks
// with the time column, tag columns and field columns the query needs.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "src/query/execution/operator.h"
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
  size_t next_series_ = 0;
};

}  // namespace gnomon::query
