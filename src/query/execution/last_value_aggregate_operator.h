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
#include <vector>

#include "src/query/execution/aggregate_function.h"
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
  // Tag values (group keys, tag arguments) come as views into the series registry
  // (ResultVector::views) instead of copies. Only for a consumer that handles them.
  void SetStringViews(bool on) { string_views_ = on; }
  std::string Describe() const override {
    return "LastValueAggregate " + table_ + ": " + std::to_string(series_.size()) +
           " series from the last-value cache";
  }

 protected:
  Status NextImpl(Chunk* chunk, bool* done) override;

 private:
  // The value one aggregate of one group has chosen so far.
  // 32 bytes: one query may hold one per group and aggregate plus a block of candidates.
  struct Best {
    int64_t time = 0;             // time of the chosen row
    uint64_t bits = 0;            // numeric / bool field value (doubles bit-cast), or the time
    const char* tag_data = nullptr;  // tag argument: the value (a view into the series registry)
    uint32_t tag_size = 0;
    bool has = false;
    bool scan = false;            // candidates only: the value needs a scan back from the newest row

    std::string_view tag() const { return std::string_view(tag_data, tag_size); }
  };

  Status Compute();
  // A string field argument: its values are kept as strings beside the states.
  static bool IsStringField(const ScanColumn& c) {
    return c.kind == ScanColumn::Kind::kField && c.type == ValueType::kString;
  }
  // The group of a series whose tags_[i] values are `tags`, with ids `value_ids` (assigned on
  // first sight, in first-seen order; the caller appends a new group's states to best_).
  uint32_t GroupOf(const std::string_view* tags, const uint32_t* value_ids);
  // Reads the cached rows and tags of series_[begin, end) into the block buffers (index
  // s - block_begin). Safe to run on disjoint ranges concurrently.
  Status Fetch(size_t begin, size_t end, size_t block_begin);
  // Fetch of the block [begin, end) by this thread and, when one is free, a helper of the
  // engine's pool.
  Status FetchShared(size_t begin, size_t end);
  // Series per visit of the last-value cache and of the registry (one lock each).
  static constexpr size_t kFetchStep = 128;
  // Newest non-null value of field column `column` in series `id`, with its time; false if none.
  Status NewestValue(storage::SeriesId id, const ScanColumn& column, uint64_t* bits,
                     std::string* str, int64_t* time, bool* found);

  std::shared_ptr<storage::TableReader> reader_;
  std::string table_;
  std::vector<storage::SeriesId> series_;
  std::vector<LastValueAggregate> aggs_;
  ExecutionContext* ctx_;
  // Per aggregate: the index among the table's fields of its argument, or -1 (not a field).
  std::vector<int> fetch_fields_;
  // Every tag the query reads (group keys and tag arguments), each once: one registry lookup per
  // series and tag. Views into the registry stay valid while the reader lives.
  std::vector<std::string> tags_;
  std::vector<size_t> key_tag_;  // per group key: index into tags_
  std::vector<int> agg_tag_;     // per aggregate: index into tags_, or -1

  // Grouping by the key tags' value ids (interned by the registry: equal ids, equal values), so
  // no tag text is hashed or compared. One key: a group per value id, directly. Several: the ids
  // side by side as the key of an open-addressing table of (hash, group) slots; UINT32_MAX marks
  // an empty slot.
  struct Slot {
    uint64_t hash = 0;
    uint32_t group = UINT32_MAX;
  };
  std::vector<uint32_t> group_of_value_;   // one key: per value id, its group or UINT32_MAX
  std::vector<Slot> slots_;
  std::vector<uint32_t> encoded_keys_;     // several keys: groups x keys value ids
  std::vector<uint32_t> key_scratch_;      // several keys: the ids of the series at hand
  uint32_t null_key_group_ = UINT32_MAX;   // one key: the group of series lacking it
  size_t groups_ = 0;
  std::vector<std::string_view> group_keys_;  // groups x keys; empty view: NULL

  std::vector<Best> best_;                // groups x aggregates
  std::vector<std::string> best_strings_; // groups x aggregates, for string field arguments only
  bool has_string_fields_ = false;
  // One block of series as fetched: present (has a cached row), tags, candidate values.
  std::vector<uint8_t> present_;
  std::vector<std::string_view> fetched_tags_;   // series x tags_
  std::vector<uint32_t> fetched_value_ids_;      // series x tags_
  std::vector<Best> candidates_;                 // series x aggregates
  std::vector<std::string> candidate_strings_;   // series x aggregates, string fields only
  bool computed_ = false;
  bool string_views_ = false;
  size_t emitted_ = 0;
};

}  // namespace gnomon::query
