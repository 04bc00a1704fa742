#include "src/query/execution/last_value_aggregate_operator.h"

#include <cstring>

#include "src/storage/engine.h"

namespace gnomon::query {
namespace {

uint64_t BitsOf(const storage::FieldValue& fv, ValueType type) {
  uint64_t bits = 0;
  switch (type) {
    case ValueType::kFloat64: std::memcpy(&bits, &fv.f64, 8); break;
    case ValueType::kInt64: bits = static_cast<uint64_t>(fv.i64); break;
    case ValueType::kUInt64: bits = fv.u64; break;
    case ValueType::kBool: bits = fv.b ? 1 : 0; break;
    default: break;
  }
  return bits;
}

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
        case ValueType::kFloat64: std::memcpy(&bits, &c.f64[r], 8); break;
        case ValueType::kInt64: bits = static_cast<uint64_t>(c.i64[r]); break;
        case ValueType::kUInt64: bits = c.u64[r]; break;
        case ValueType::kBool: bits = c.b[r] != 0 ? 1 : 0; break;
        case ValueType::kString: str.assign(c.str[r]); break;
        default: break;
      }
      return false;
    }
    return true;
  }
  bool found = false;
  int64_t time = 0;
  uint64_t bits = 0;
  std::string str;
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
  for (const LastValueAggregate& a : aggs_) {
    schema_.push_back(ResultColumn{a.spec.text, a.spec.result_type});
    int idx = -1, field = 0;
    for (const auto& c : info.columns) {
      if (c.kind != storage::ColumnInfo::Kind::kField) continue;
      if (c.name == a.column.name) idx = field;
      ++field;
    }
    field_index_.push_back(a.column.kind == ScanColumn::Kind::kField ? idx : -1);
    if (a.column.kind == ScanColumn::Kind::kField && a.column.type == ValueType::kString) {
      has_string_fields_ = true;
    }
  }
  if (key_tags_.size() > 1) multi_key_groups_ = std::make_unique<TagGroups>(*reader_, key_tags_);
}

Status LastValueAggregateOperator::NewestValue(storage::SeriesId id, const ScanColumn& column,
                                               uint64_t* bits, std::string* str, int64_t* time,
                                               bool* found) {
  storage::ScanSpec spec;
  spec.series = {id};
  spec.columns = {column.name};
  spec.newest_first = true;
  NewestConsumer consumer;
  storage::ScanMetrics metrics;
  GNOMON_RETURN_IF_ERROR(reader_->Scan(spec, &consumer, &metrics));
  ctx_->stats.blocks_decoded += metrics.blocks_decoded;
  *found = consumer.found;
  *bits = consumer.bits;
  *str = std::move(consumer.str);
  *time = consumer.time;
  return Status::OK();
}

uint32_t LastValueAggregateOperator::GroupOf(storage::SeriesId id) {
  uint32_t group;
  if (key_tags_.empty()) {
    group = 0;
  } else if (multi_key_groups_) {
    group = multi_key_groups_->GroupOf(id);
  } else {
    std::string_view v = reader_->SeriesTag(id, key_tags_[0]);
    if (v.empty()) {
      if (null_key_group_ == UINT32_MAX) null_key_group_ = static_cast<uint32_t>(group_series_.size());
      group = null_key_group_;
    } else {
      group = single_key_groups_.try_emplace(v, static_cast<uint32_t>(group_series_.size())).first->second;
    }
  }
  if (group == group_series_.size()) {
    group_series_.push_back(id);
    best_.resize(best_.size() + aggs_.size());
    if (has_string_fields_) best_strings_.resize(best_strings_.size() + aggs_.size());
  }
  return group;
}

Status LastValueAggregateOperator::Compute() {
  if (key_tags_.size() == 1) single_key_groups_.reserve(series_.size());
  storage::LastRow last;
  std::vector<int> value_pos;
  const size_t naggs = aggs_.size();
  for (size_t s = 0; s < series_.size(); ++s) {
    const storage::SeriesId id = series_[s];
    if ((s & 1023) == 0) GNOMON_RETURN_IF_ERROR(ctx_->Check());
    if (!reader_->LastRowOf(id, &last)) continue;
    ++ctx_->stats.series_scanned;
    const uint32_t group = GroupOf(id);
    Best* best = &best_[static_cast<size_t>(group) * naggs];
    // Where each field sits in the cached row (one pass instead of a search per aggregate).
    std::fill(value_pos.begin(), value_pos.end(), -1);
    for (size_t i = 0; i < last.values.size(); ++i) {
      const uint32_t f = last.values[i].field;
      if (f >= value_pos.size()) value_pos.resize(f + 1, -1);
      value_pos[f] = static_cast<int>(i);
    }
    for (size_t a = 0; a < naggs; ++a) {
      Best& st = best[a];
      // Another series of the group already gave a value at least as new as anything this
      // series holds (its rows are all at or before last.time): nothing to do.
      if (st.has && last.time <= st.time) continue;
      const ScanColumn& col = aggs_[a].column;
      int64_t t = last.time;
      uint64_t bits = 0;
      switch (col.kind) {
        case ScanColumn::Kind::kTime: bits = static_cast<uint64_t>(last.time); break;
        case ScanColumn::Kind::kTag:
          // Read at emission from the winning series; a series without the tag gives nothing.
          if (reader_->SeriesTag(id, col.name).empty()) continue;
          break;
        case ScanColumn::Kind::kField: {
          const int f = field_index_[a];
          const int pos = f >= 0 && static_cast<size_t>(f) < value_pos.size() ? value_pos[f] : -1;
          if (pos >= 0) {
            const storage::FieldValue& fv = last.values[pos];
            if (col.type == ValueType::kString) {
              best_strings_[static_cast<size_t>(group) * naggs + a].assign(
                  last.strings, fv.str.offset, fv.str.length);
            } else {
              bits = BitsOf(fv, col.type);
            }
          } else {
            // The newest row lacks this field: its newest value is further back.
            bool found = false;
            std::string str;
            GNOMON_RETURN_IF_ERROR(NewestValue(id, col, &bits, &str, &t, &found));
            if (!found || (st.has && t <= st.time)) continue;
            if (col.type == ValueType::kString) {
              best_strings_[static_cast<size_t>(group) * naggs + a] = std::move(str);
            }
          }
          break;
        }
      }
      st.has = true;
      st.time = t;
      st.series = id;
      st.bits = bits;
    }
  }
  // Without GROUP BY an aggregate over no rows still yields one row (all NULL here).
  if (key_tags_.empty() && group_series_.empty()) {
    group_series_.push_back(0);
    best_.resize(naggs);
    if (has_string_fields_) best_strings_.resize(naggs);
  }
  return Status::OK();
}

Status LastValueAggregateOperator::NextImpl(Chunk* chunk, bool* done) {
  if (!computed_) {
    GNOMON_RETURN_IF_ERROR(Compute());
    computed_ = true;
  }
  const size_t groups = group_series_.size();
  const size_t begin = emitted_;
  const size_t end = std::min(groups, begin + kChunkRows);
  const size_t n = end - begin;
  const size_t nkeys = key_tags_.size();
  const size_t naggs = aggs_.size();
  chunk->rows = n;
  chunk->columns.assign(schema_.size(), Vector{});
  for (size_t c = 0; c < schema_.size(); ++c) InitVector(&chunk->columns[c], schema_[c].type, n);

  auto mark_null = [](Vector* v, size_t row) {
    if (v->validity.empty()) v->validity.assign(row, 1);
    v->validity.push_back(0);
  };
  auto mark_valid = [](Vector* v) {
    if (!v->validity.empty()) v->validity.push_back(1);
  };

  for (size_t k = 0; k < nkeys; ++k) {
    Vector& v = chunk->columns[k];
    for (size_t g = begin; g < end; ++g) {
      std::string_view tag = reader_->SeriesTag(group_series_[g], key_tags_[k]);
      v.str.emplace_back(tag);
      if (tag.empty()) mark_null(&v, g - begin); else mark_valid(&v);
    }
  }
  for (size_t a = 0; a < naggs; ++a) {
    Vector& v = chunk->columns[nkeys + a];
    const ScanColumn& col = aggs_[a].column;
    const ValueType type = schema_[nkeys + a].type;
    for (size_t g = begin; g < end; ++g) {
      const size_t slot = g * naggs + a;
      const Best& st = best_[slot];
      const size_t row = g - begin;
      switch (type) {
        case ValueType::kFloat64: {
          double d;
          std::memcpy(&d, &st.bits, 8);
          v.f64.push_back(st.has ? d : 0);
          break;
        }
        case ValueType::kInt64:
        case ValueType::kTimestamp: v.i64.push_back(st.has ? static_cast<int64_t>(st.bits) : 0); break;
        case ValueType::kUInt64: v.u64.push_back(st.has ? st.bits : 0); break;
        case ValueType::kBool: v.b.push_back(st.has && st.bits != 0 ? 1 : 0); break;
        case ValueType::kString:
          if (!st.has) {
            v.str.emplace_back();
          } else if (col.kind == ScanColumn::Kind::kTag) {
            v.str.emplace_back(reader_->SeriesTag(st.series, col.name));
          } else {
            v.str.push_back(std::move(best_strings_[slot]));  // each group is emitted once
          }
          break;
        default: break;
      }
      if (st.has) mark_valid(&v); else mark_null(&v, row);
    }
  }
  emitted_ = end;
  *done = emitted_ >= groups;
  return Status::OK();
}

}  // namespace gnomon::query
