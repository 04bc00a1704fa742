#include "src/query/execution/grouped_aggregate_operator.h"

#include <algorithm>

namespace gnomon::query {

Status GroupedAggregateOperator::NextImpl(Chunk* chunk, bool* done) {
  if (!computed_) {
    GNOMON_RETURN_IF_ERROR(Compute());
    computed_ = true;
  }
  const size_t total = NumGroups();
  const size_t end = std::min(total, emitted_ + kChunkRows);
  chunk->rows = end - emitted_;
  chunk->columns.assign(schema_.size(), Vector{});
  for (size_t c = 0; c < schema_.size(); ++c) {
    InitVector(&chunk->columns[c], schema_[c].type, OutputUnread(c) ? 0 : end - emitted_);
  }
  GNOMON_RETURN_IF_ERROR(EmitGroups(emitted_, end, chunk));
  emitted_ = end;
  *done = emitted_ >= total;
  return Status::OK();
}

Status GroupedAggregateOperator::EmitGroups(size_t begin, size_t end, Chunk* chunk) {
  const size_t nkeys = schema_.size() - specs_.size();
  for (size_t g = begin; g < end; ++g) {
    for (size_t k = 0; k < nkeys; ++k) AppendValue(&chunk->columns[k], std::move(group_keys_[g][k]));
    for (size_t a = 0; a < specs_.size(); ++a) {
      // Each group is emitted once: its values can be moved out.
      GNOMON_ASSIGN_OR_RETURN(Value v, TakeAggregate(g, a));
      AppendValue(&chunk->columns[nkeys + a], std::move(v));
    }
  }
  return Status::OK();
}

void GroupedAggregateOperator::AddEmptyGroupIfNoKeys(size_t num_keys) {
  if (num_keys == 0 && group_keys_.empty()) {
    group_keys_.emplace_back();
    group_states_.emplace_back(specs_.size());  // count 0, NULL otherwise
  }
}

uint32_t TagGroups::GroupOf(storage::SeriesId id) {
  key_.clear();
  for (const std::string& tag : tags_) {
    std::string_view v = reader_.SeriesTag(id, tag);
    // A length prefix keeps ("a,b", "c") apart from ("a", "b,c"); -1 marks a missing tag (NULL).
    const int32_t len = v.empty() ? -1 : static_cast<int32_t>(v.size());
    key_.append(reinterpret_cast<const char*>(&len), sizeof(len));
    key_.append(v);
  }
  auto [it, inserted] = ids_.emplace(key_, static_cast<uint32_t>(values_.size()));
  if (inserted) {
    std::vector<Value> vals;
    vals.reserve(tags_.size());
    for (const std::string& tag : tags_) {
      std::string_view v = reader_.SeriesTag(id, tag);
      vals.push_back(v.empty() ? Value::Null() : Value::String(std::string(v)));
    }
    values_.push_back(std::move(vals));
  }
  return it->second;
}

}  // namespace gnomon::query
