// LastPointOperator: the newest row of each series, read from the last-value cache instead of
// data files. Feeds the usual sort / DISTINCT ON pipeline of last-point queries.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "src/query/execution/operator.h"
#include "src/query/execution/scan_operator.h"
#include "src/storage/engine.h"

namespace gnomon::query {

class LastPointOperator final : public Operator {
 public:
  LastPointOperator(std::shared_ptr<storage::TableReader> reader, std::string table,
                    std::vector<ScanColumn> columns, std::vector<storage::SeriesId> series);
  std::string Describe() const override {
    return "LastPoint " + table_ + ": " + std::to_string(series_.size()) +
           " series from the last-value cache";
  }

 protected:
  Status NextImpl(Chunk* chunk, bool* done) override;

 private:
  std::shared_ptr<storage::TableReader> reader_;
  std::string table_;
  std::vector<ScanColumn> columns_;
  std::vector<storage::SeriesId> series_;
  std::vector<int> field_ids_;  // per column: index among the table's fields, or -1
};

}  // namespace gnomon::query
