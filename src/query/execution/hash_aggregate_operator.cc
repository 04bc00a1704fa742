#include "src/query/execution/hash_aggregate_operator.h"

#include "src/query/execution/basic_operators.h"
#include "src/query/execution/expression_executor.h"

namespace gnomon::query {

HashAggregateOperator::HashAggregateOperator(OperatorPtr child, std::vector<BoundExprPtr> keys,
                                             std::vector<std::string> key_names,
                                             std::vector<AggregateSpec> aggregates,
                                             ExecutionContext* ctx)
    : child_(std::move(child)), keys_(std::move(keys)), ctx_(ctx) {
  specs_ = std::move(aggregates);
  for (size_t i = 0; i < keys_.size(); ++i) schema_.push_back(ResultColumn{key_names[i], keys_[i]->type});
  for (const AggregateSpec& a : specs_) schema_.push_back(ResultColumn{a.text, a.result_type});
}

std::string HashAggregateOperator::Describe() const {
  std::string d = "HashAggregate:";
  for (size_t i = 0; i < schema_.size(); ++i) d += (i ? ", " : " ") + schema_[i].name;
  return d;
}

Status HashAggregateOperator::Compute() {
  Chunk in, keys_chunk;
  std::vector<Vector> args(specs_.size()), akeys(specs_.size());
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
      for (size_t a = 0; a < specs_.size(); ++a) {
        if (specs_[a].arg) GNOMON_RETURN_IF_ERROR(Evaluate(*specs_[a].arg, in, &args[a]));
        if (specs_[a].key) GNOMON_RETURN_IF_ERROR(Evaluate(*specs_[a].key, in, &akeys[a]));
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
          group_states_.emplace_back(specs_.size());
          GNOMON_RETURN_IF_ERROR(ctx_->Reserve(key.size() + 64 + specs_.size() * sizeof(AggState)));
        }
        row_group[r] = it->second;
      }
      for (size_t a = 0; a < specs_.size(); ++a) {
        const Vector* arg = specs_[a].arg ? &args[a] : nullptr;
        const Vector* akey = specs_[a].key ? &akeys[a] : nullptr;
        size_t held = 0;  // median, quantiles and mode keep their values until the end
        for (size_t r = 0; r < in.rows; ++r) held += group_states_[row_group[r]][a].Update(specs_[a], arg, akey, r);
        if (held > 0) GNOMON_RETURN_IF_ERROR(ctx_->Reserve(held));
      }
    }
    if (done) break;
  }
  AddEmptyGroupIfNoKeys(keys_.size());
  return Status::OK();
}

}  // namespace gnomon::query
