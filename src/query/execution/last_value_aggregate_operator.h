// LastValueAggregateOperator: last_value(x ORDER BY time) / last(x) per group of tag values,
// answered from the last-value cache: one cached row per series, and a newest-first scan of a
// series only when its newest row lacks the column. Output columns are those
// HashAggregateOperator would produce for the same query (group keys, then aggregates; groups in
// first-seen order of `series`).
//
// Results are kept typed per group (the winning time, series and raw value bits), never as boxed
// Values, and tag strings are read from the series registry only when a chunk is emitted.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
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

class LastValueAggregateOperator final : public Operator {
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
  Status NextImpl(Chunk* chunk, bool* done) override;

 private:
  // The value one aggregate of one group has chosen so far.
  struct Best {
    int64_t time = 0;             // time of the chosen row
    storage::SeriesId series = 0; // series it came from (tag arguments are read from it)
    bool has = false;
    uint64_t bits = 0;            // numeric / bool field value (doubles bit-cast)
  };

  Status Compute();
  // The group of series `id` (assigned on first sight, in first-seen order).
  uint32_t GroupOf(storage::SeriesId id);
  // Newest non-null value of field column `column` in series `id`, with its time; false if none.
  Status NewestValue(storage::SeriesId id, const ScanColumn& column, uint64_t* bits,
                     std::string* str, int64_t* time, bool* found);

  std::shared_ptr<storage::TableReader> reader_;
  std::string table_;
  std::vector<storage::SeriesId> series_;
  std::vector<std::string> key_tags_;
  std::vector<LastValueAggregate> aggs_;
  ExecutionContext* ctx_;
  std::vector<int> field_index_;  // per aggregate: index among the table's fields, or -1

  // Grouping. One key tag: by the tag's value (views into the registry, which outlives the
  // reader's snapshot); several: TagGroups; none: a single group.
  std::unordered_map<std::string_view, uint32_t> single_key_groups_;
  uint32_t null_key_group_ = UINT32_MAX;  // the group of series lacking the single key tag
  std::unique_ptr<TagGroups> multi_key_groups_;
  std::vector<storage::SeriesId> group_series_;  // per group: its first series (for key values)

  std::vector<Best> best_;                // groups x aggregates
  std::vector<std::string> best_strings_; // groups x aggregates, for string field arguments only
  bool has_string_fields_ = false;
  bool computed_ = false;
  size_t emitted_ = 0;
};

}  // namespace gnomon::query
