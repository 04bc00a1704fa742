#include "src/query/execution/hash_aggregate_operator.h"

#include "src/query/execution/basic_operators.h"
#include "src/query/execution/expression_executor.h"

namespace gnomon::query {

HashAggregateOperator::HashAggregateOperator(OperatorPtr child, std::vector<BoundExprPtr> keys,
                                             std::vector<std::string> key_names,
                                             std::vector<AggregateSpec> aggregates,
                                             ExecutionContext* ctx)
    : child_(std::move(child)), keys_(std::move(keys)), aggs_(std::move(aggregates)), ctx_(ctx) {
  for (size_t i = 0; i < keys_.size(); ++i) schema_.push_back(ResultColumn{key_names[i], keys_[i]->type});
  for (const AggregateSpec& a : aggs_) schema_.push_back(ResultColumn{a.text, a.result_type});
}

std::string HashAggregateOperator::Describe() const {
  std::string d = "HashAggregate:";
  for (size_t i = 0; i < schema_.size(); ++i) d += (i ? ", " : " ") + schema_[i].name;
  return d;
}

Status HashAggregateOperator::Consume() {
  Chunk in, keys_chunk;
  std::vector<Vector> args(aggs_.size()), akeys(aggs_.size());
  std::string key;
  std::vector<uint32_t> row_group;
  while (true) {
    GNOMON_RETURN_IF_ERROR(ctx_->Check());
    bool done = false;
    GNOMON_RETURN_IF_ERROR(child_->Next(&in, &done));
    if (in.rows > 0) {
      keys_chunk.rows = in.rows;
      keys_chunk.columns.resize(keys_.size());
      for (size_t k = 0; k < keys_.size(); ++k) {
        GNOMON_RETURN_IF_ERROR(Evaluate(*keys_[k], in, &keys_chunk.columns[k]));
      }
      for (size_t a = 0; a < aggs_.size(); ++a) {
        if (aggs_[a].arg) GNOMON_RETURN_IF_ERROR(Evaluate(*aggs_[a].arg, in, &args[a]));
        if (aggs_[a].key) GNOMON_RETURN_IF_ERROR(Evaluate(*aggs_[a].key, in, &akeys[a]));
      }
      row_group.resize(in.rows);
      for (size_t r = 0; r < in.rows; ++r) {
        key.clear();
        AppendRowKey(keys_chunk, r, keys_.size(), &key);
        auto [it, inserted] = groups_.emplace(key, static_cast<uint32_t>(group_keys_.size()));
        if (inserted) {
          std::vector<Value> kv;
          kv.reserve(keys_.size());
          for (size_t k = 0; k < keys_.size(); ++k) kv.push_back(GetValue(keys_chunk.columns[k], r));
          group_keys_.push_back(std::move(kv));
          states_.emplace_back(aggs_.size());
          GNOMON_RETURN_IF_ERROR(ctx_->Reserve(key.size() + 64 + aggs_.size() * sizeof(AggState)));
        }
        row_group[r] = it->second;
      }
      for (size_t a = 0; a < aggs_.size(); ++a) {
        const Vector* arg = aggs_[a].arg ? &args[a] : nullptr;
        const Vector* akey = aggs_[a].key ? &akeys[a] : nullptr;
        for (size_t r = 0; r < in.rows; ++r) states_[row_group[r]][a].Update(aggs_[a], arg, akey, r);
      }
    }
    if (done) break;
  }
  // Without GROUP BY an aggregate over no rows still yields one row (count = 0, others NULL).
  if (keys_.empty() && group_keys_.empty()) {
    group_keys_.emplace_back();
    states_.emplace_back(aggs_.size());
  }
  return Status::OK();
}

Status EmitGroups(const std::vector<ResultColumn>& schema, const std::vector<AggregateSpec>& aggs,
                  const std::vector<std::vector<Value>>& keys,
                  const std::vector<std::vector<AggState>>& states,
                  const std::vector<uint32_t>& order, size_t begin, size_t end, Chunk* out) {
  out->rows = 0;
  out->columns.assign(schema.size(), Vector{});
  for (size_t c = 0; c < schema.size(); ++c) InitVector(&out->columns[c], schema[c].type, end - begin);
  const size_t nkeys = schema.size() - aggs.size();
  for (size_t i = begin; i < end; ++i) {
    uint32_t g = order.empty() ? static_cast<uint32_t>(i) : order[i];
    for (size_t k = 0; k < nkeys; ++k) AppendValue(&out->columns[k], keys[g][k]);
    for (size_t a = 0; a < aggs.size(); ++a) {
      GNOMON_ASSIGN_OR_RETURN(Value v, states[g][a].Finalize(aggs[a]));
      AppendValue(&out->columns[nkeys + a], v);
    }
    ++out->rows;
  }
  return Status::OK();
}

Status HashAggregateOperator::NextImpl(Chunk* chunk, bool* done) {
  if (!consumed_) {
    GNOMON_RETURN_IF_ERROR(Consume());
    consumed_ = true;
  }
  size_t end = std::min(group_keys_.size(), emitted_ + kChunkRows);
  GNOMON_RETURN_IF_ERROR(EmitGroups(schema_, aggs_, group_keys_, states_, {}, emitted_, end, chunk));
  emitted_ = end;
  *done = emitted_ >= group_keys_.size();
  return Status::OK();
}

}  // namespace gnomon::query
