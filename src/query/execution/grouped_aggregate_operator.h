// GroupedAggregateOperator: what every aggregation operator shares — compute all groups once,
// then emit each group's key values and finalised aggregates in chunks (keys first, then
// aggregates). Subclasses only fill the groups. Also TagGroups, the grouping of series by the
// values of some of their tags.
#pragma once

#include <string>
#include <unordered_map>
#include <vector>

#include "src/query/execution/aggregate_function.h"
#include "src/query/execution/operator.h"
#include "src/storage/scan.h"

namespace gnomon::query {

class GroupedAggregateOperator : public Operator {
 public:
  // Output column `c` is read by no one (the projection above does not refer to it): it may be
  // emitted empty (0 values, whatever chunk.rows says). Group keys only; an aggregate is always
  // emitted.
  void SetOutputUnread(size_t c) {
    if (unread_.size() < schema_.size()) unread_.resize(schema_.size(), false);
    if (c < unread_.size()) unread_[c] = true;
  }

 protected:
  bool OutputUnread(size_t c) const { return c < unread_.size() && unread_[c]; }
  // Fills group_keys_ and group_states_ (one AggState per spec in specs_).
  virtual Status Compute() = 0;
  Status NextImpl(Chunk* chunk, bool* done) final;
  // Without GROUP BY an aggregate over no rows still yields one row (count = 0, others NULL).
  void AddEmptyGroupIfNoKeys(size_t num_keys);
  // The value of aggregate `a` of group `g`; each is taken once, so it may be moved out.
  virtual Result<Value> TakeAggregate(size_t g, size_t a) { return group_states_[g][a].TakeResult(specs_[a]); }
  // How many groups Compute() made, and appending groups [begin, end) to `chunk` (its columns set
  // up per schema_: keys, then aggregates). The defaults read group_keys_ and TakeAggregate; a
  // subclass with its own compact groups overrides both and writes typed columns directly.
  virtual size_t NumGroups() const { return group_keys_.size(); }
  virtual Status EmitGroups(size_t begin, size_t end, Chunk* chunk);

  std::vector<AggregateSpec> specs_;
  std::vector<std::vector<Value>> group_keys_;
  std::vector<std::vector<AggState>> group_states_;

 private:
  std::vector<bool> unread_;
  bool computed_ = false;
  size_t emitted_ = 0;
};

// Series with equal values of `tags` share one dense group id.
class TagGroups {
 public:
  TagGroups(const storage::TableReader& reader, std::vector<std::string> tags)
      : reader_(reader), tags_(std::move(tags)) {}

  // The group of series `id`, assigned on first sight.
  uint32_t GroupOf(storage::SeriesId id);
  // The tag values of a group, in `tags` order; NULL where its series lack the tag.
  const std::vector<Value>& Values(uint32_t group) const { return values_[group]; }
  size_t size() const { return values_.size(); }

 private:
  const storage::TableReader& reader_;
  std::vector<std::string> tags_;
  std::unordered_map<std::string, uint32_t> ids_;
  std::vector<std::vector<Value>> values_;
  std::string key_;
};

}  // namespace gnomon::query
