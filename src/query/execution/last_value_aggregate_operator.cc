#include "src/query/execution/last_value_aggregate_operator.h"


#include "src/storage/engine.h"

namespace gnomon::query {
namespace {

// Takes the first valid row of a newest-first scan.
class NewestConsumer final : public storage::ScanConsumer {
 public:
  bool OnBatch(const storage::ColumnBatch& batch) override {
    const storage::ColumnVector& c = batch.columns[0];
    for (size_t r = 0; r < batch.rows; ++r) {
      if (c.type == ValueType::kNull || !c.IsValid(r)) continue;
      found = true;
      time = batch.times[r];
      switch (c.type) {
        case ValueType::kFloat64: value = Value::Float(c.f64[r]); break;
        case ValueType::kInt64: value = Value::Int(c.i64[r]); break;
        case ValueType::kUInt64: value = Value::UInt(c.u64[r]); break;
        case ValueType::kBool: value = Value::Bool(c.b[r] != 0); break;
        case ValueType::kString: value = Value::String(std::string(c.str[r])); break;
        default: break;
      }
      return false;
    }
    return true;
  }
  bool found = false;
  int64_t time = 0;
  Value value;
};

}  // namespace

LastValueAggregateOperator::LastValueAggregateOperator(
    std::shared_ptr<storage::TableReader> reader, std::string table,
    std::vector<storage::SeriesId> series, std::vector<std::string> key_tags,
    std::vector<std::string> key_names, std::vector<LastValueAggregate> aggs, ExecutionContext* ctx)
    : reader_(std::move(reader)), table_(std::move(table)), series_(std::move(series)),
      key_tags_(std::move(key_tags)), aggs_(std::move(aggs)), ctx_(ctx) {
  for (const std::string& n : key_names) schema_.push_back(ResultColumn{n, ValueType::kString});
  const storage::TableInfo& info = reader_->Info();
  for (LastValueAggregate& a : aggs_) {
    schema_.push_back(ResultColumn{a.spec.text, a.spec.result_type});
    int idx = -1, field = 0;
    for (const auto& c : info.columns) {
      if (c.kind != storage::ColumnInfo::Kind::kField) continue;
      if (c.name == a.column.name) idx = field;
      ++field;
    }
    field_index_.push_back(idx);
    specs_.push_back(std::move(a.spec));
  }
}

Status LastValueAggregateOperator::NewestValue(storage::SeriesId id, const ScanColumn& column,
                                               Value* value, int64_t* time, bool* found) {
  storage::ScanSpec spec;
  spec.series = {id};
  spec.columns = {column.name};
  spec.newest_first = true;
  NewestConsumer consumer;
  storage::ScanMetrics metrics;
  GNOMON_RETURN_IF_ERROR(reader_->Scan(spec, &consumer, &metrics));
  ctx_->stats.blocks_decoded += metrics.blocks_decoded;
  *found = consumer.found;
  *value = std::move(consumer.value);
  *time = consumer.time;
  return Status::OK();
}

Status LastValueAggregateOperator::Compute() {
  TagGroups groups(*reader_, key_tags_);
  storage::LastRow last;
  std::vector<int> value_pos;
  for (storage::SeriesId id : series_) {
    GNOMON_RETURN_IF_ERROR(ctx_->Check());
    if (!reader_->LastRowOf(id, &last)) continue;
    ++ctx_->stats.series_scanned;
    const uint32_t group = groups.GroupOf(id);
    if (group == group_keys_.size()) {
      group_keys_.push_back(groups.Values(group));
      group_states_.emplace_back(specs_.size());
    }
    std::vector<AggState>& states = group_states_[group];
    // Where each field sits in the cached row (one pass instead of a search per aggregate).
    std::fill(value_pos.begin(), value_pos.end(), -1);
    for (size_t i = 0; i < last.values.size(); ++i) {
      const uint32_t f = last.values[i].field;
      if (f >= value_pos.size()) value_pos.resize(f + 1, -1);
      value_pos[f] = static_cast<int>(i);
    }
    for (size_t a = 0; a < aggs_.size(); ++a) {
      const ScanColumn& col = aggs_[a].column;
      AggState& st = states[a];
      const int pos = field_index_[a] >= 0 && static_cast<size_t>(field_index_[a]) < value_pos.size()
                          ? value_pos[field_index_[a]]
                          : -1;
      // Another series of the group already gave a value at least as new as anything this
      // series holds (its rows are all at or before last.time): nothing to build.
      if (st.has && last.time <= st.best_key.i) continue;
      Value v;
      int64_t t = last.time;
      bool found = true;
      switch (col.kind) {
        case ScanColumn::Kind::kTime: v = Value::Timestamp(last.time); break;
        case ScanColumn::Kind::kTag: {
          std::string_view tag = reader_->SeriesTag(id, col.name);
          found = !tag.empty();
          v = Value::String(std::string(tag));
          break;
        }
        case ScanColumn::Kind::kField: {
          found = pos >= 0;
          if (found) {
            const storage::FieldValue& fv = last.values[pos];
            switch (col.type) {
              case ValueType::kFloat64: v = Value::Float(fv.f64); break;
              case ValueType::kInt64: v = Value::Int(fv.i64); break;
              case ValueType::kUInt64: v = Value::UInt(fv.u64); break;
              case ValueType::kBool: v = Value::Bool(fv.b); break;
              case ValueType::kString: v = Value::String(last.strings.substr(fv.str.offset, fv.str.length)); break;
              default: break;
            }
          }
          // The newest row lacks this field: its newest value is further back.
          if (!found) GNOMON_RETURN_IF_ERROR(NewestValue(id, col, &v, &t, &found));
          break;
        }
      }
      if (!found) continue;
      if (!st.has || t > st.best_key.i) {
        st.best = std::move(v);
        st.best_key.type = ValueType::kTimestamp;
        st.best_key.i = t;
        st.has = true;
      }
    }
  }
  AddEmptyGroupIfNoKeys(key_tags_.size());
  return Status::OK();
}

}  // namespace gnomon::query
