// LastValueAggregateOperator: last_value(x ORDER BY time) / last(x) per group of tag values,
// answered from the last-value cache: one cached row per series, and a newest-first scan of a
// series only when its newest row lacks the column. Output columns are those
// HashAggregateOperator would produce for the same query.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "src/query/execution/aggregate_function.h"
#include "src/query/execution/grouped_aggregate_operator.h"
#include "src/query/execution/operator.h"
#include "src/query/execution/scan_operator.h"
#include "src/storage/scan.h"

namespace gnomon::query {

struct LastValueAggregate {
  AggregateSpec spec;  // kLast by time
  ScanColumn column;   // the argument: the time column, a tag or a field
};

class LastValueAggregateOperator final : public GroupedAggregateOperator {
 public:
  LastValueAggregateOperator(std::shared_ptr<storage::TableReader> reader, std::string table,
                             std::vector<storage::SeriesId> series, std::vector<std::string> key_tags,
                             std::vector<std::string> key_names, std::vector<LastValueAggregate> aggs,
                             ExecutionContext* ctx);
  std::string Describe() const override {
    return "LastValueAggregate " + table_ + ": " + std::to_string(series_.size()) +
           " series from the last-value cache";
  }

 protected:
  Status Compute() override;

 private:
  // Newest non-null value of field `name` in series `id`, with its time; false if none.
  Status NewestValue(storage::SeriesId id, const ScanColumn& column, Value* value, int64_t* time,
                     bool* found);

  std::shared_ptr<storage::TableReader> reader_;
  std::string table_;
  std::vector<storage::SeriesId> series_;
  std::vector<std::string> key_tags_;
  std::vector<LastValueAggregate> aggs_;
  ExecutionContext* ctx_;
  std::vector<int> field_index_;  // per aggregate: index among the table's fields, or -1
};

}  // namespace gnomon::query
