#include "src/query/execution/last_value_aggregate_operator.h"

#include <cstring>

#include "src/base/hash.h"
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
      aggs_(std::move(aggs)), ctx_(ctx) {
  auto tag_index = [&](const std::string& name) {
    for (size_t i = 0; i < tags_.size(); ++i) {
      if (tags_[i] == name) return i;
    }
    tags_.push_back(name);
    return tags_.size() - 1;
  };
  for (const std::string& k : key_tags) key_tag_.push_back(tag_index(k));
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
    agg_tag_.push_back(a.column.kind == ScanColumn::Kind::kTag ? static_cast<int>(tag_index(a.column.name)) : -1);
    if (a.column.kind == ScanColumn::Kind::kField && a.column.type == ValueType::kString) {
      has_string_fields_ = true;
    }
  }
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

uint32_t LastValueAggregateOperator::GroupOf(const std::vector<std::string_view>& tags) {
  const uint32_t next = static_cast<uint32_t>(groups_);
  uint32_t group = next;
  if (key_tag_.empty()) {
    group = 0;
  } else if (key_tag_.size() == 1 && tags[key_tag_[0]].empty()) {
    if (null_key_group_ == UINT32_MAX) null_key_group_ = next;
    group = null_key_group_;
  } else {
    std::string_view key;
    if (key_tag_.size() == 1) {
      key = tags[key_tag_[0]];
    } else {
      key_buffer_.clear();
      for (size_t k : key_tag_) {
        std::string_view v = tags[k];
        // A length prefix keeps ("a,b", "c") apart from ("a", "b,c"); -1 marks a missing tag.
        const int32_t len = v.empty() ? -1 : static_cast<int32_t>(v.size());
        key_buffer_.append(reinterpret_cast<const char*>(&len), sizeof(len));
        key_buffer_.append(v);
      }
      key = key_buffer_;
    }
    if (2 * (groups_ + 1) > slots_.size()) {
      // Keep the load at most 1/2: rehash into twice the slots.
      std::vector<Slot> old(std::max<size_t>(64, 2 * slots_.size()));
      old.swap(slots_);
      for (const Slot& s : old) {
        if (s.group == UINT32_MAX) continue;
        size_t i = s.hash & (slots_.size() - 1);
        while (slots_[i].group != UINT32_MAX) i = (i + 1) & (slots_.size() - 1);
        slots_[i] = s;
      }
    }
    const uint64_t hash = Hash64(key);
    size_t i = hash & (slots_.size() - 1);
    for (;; i = (i + 1) & (slots_.size() - 1)) {
      const Slot& s = slots_[i];
      if (s.group == UINT32_MAX) break;
      if (s.hash != hash) continue;
      const std::string_view existing =
          key_tag_.size() == 1 ? group_keys_[s.group] : std::string_view(encoded_keys_[s.group]);
      if (existing == key) {
        group = s.group;
        break;
      }
    }
    if (group == next) {
      slots_[i] = Slot{hash, next};
      if (key_tag_.size() > 1) encoded_keys_.emplace_back(key);
    }
  }
  if (group == next) {
    ++groups_;
    for (size_t k : key_tag_) group_keys_.push_back(tags[k]);
    best_.resize(best_.size() + aggs_.size());
    if (has_string_fields_) best_strings_.resize(best_strings_.size() + aggs_.size());
  }
  return group;
}

Status LastValueAggregateOperator::Compute() {
  // Typically (last points per host) each series is its own group: room for that many up front
  // (address space only until touched) saves regrowing and copying the states.
  if (!key_tag_.empty()) best_.reserve(std::min<size_t>(series_.size(), 1 << 16) * aggs_.size());
  storage::LastRow last;
  std::vector<std::string_view> tags(tags_.size());
  std::vector<int> value_pos;
  const size_t naggs = aggs_.size();
  for (size_t s = 0; s < series_.size(); ++s) {
    const storage::SeriesId id = series_[s];
    if ((s & 1023) == 0) GNOMON_RETURN_IF_ERROR(ctx_->Check());
    if (!reader_->LastRowOf(id, &last)) continue;
    ++ctx_->stats.series_scanned;
    for (size_t i = 0; i < tags_.size(); ++i) tags[i] = reader_->SeriesTag(id, tags_[i]);
    const uint32_t group = GroupOf(tags);
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
      std::string_view tag;
      switch (col.kind) {
        case ScanColumn::Kind::kTime: bits = static_cast<uint64_t>(last.time); break;
        case ScanColumn::Kind::kTag:
          tag = tags[agg_tag_[a]];
          if (tag.empty()) continue;  // a series without the tag gives nothing
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
      st.bits = bits;
      st.tag = tag;
    }
  }
  // Without GROUP BY an aggregate over no rows still yields one row (all NULL here).
  if (key_tag_.empty() && groups_ == 0) {
    groups_ = 1;
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
  const size_t begin = emitted_;
  const size_t end = std::min(groups_, begin + kChunkRows);
  const size_t nkeys = key_tag_.size();
  const size_t naggs = aggs_.size();
  chunk->rows = end - begin;
  chunk->columns.assign(schema_.size(), Vector{});
  for (size_t c = 0; c < schema_.size(); ++c) {
    InitVector(&chunk->columns[c], schema_[c].type, chunk->rows);
  }
  auto set_valid = [](Vector* v, size_t row, bool valid) {
    if (valid) {
      if (!v->validity.empty()) v->validity.push_back(1);
    } else {
      if (v->validity.empty()) v->validity.assign(row, 1);
      v->validity.push_back(0);
    }
  };
  // Group by group (the order best_ is stored in), appending to every column.
  for (size_t g = begin; g < end; ++g) {
    const size_t row = g - begin;
    for (size_t k = 0; k < nkeys; ++k) {
      Vector& v = chunk->columns[k];
      const std::string_view tag = group_keys_[g * nkeys + k];
      v.str.emplace_back(tag);
      set_valid(&v, row, !tag.empty());
    }
    const Best* best = &best_[g * naggs];
    for (size_t a = 0; a < naggs; ++a) {
      const Best& st = best[a];
      Vector& v = chunk->columns[nkeys + a];
      switch (v.type) {
        case ValueType::kFloat64: {
          double d = 0;
          if (st.has) std::memcpy(&d, &st.bits, 8);
          v.f64.push_back(d);
          break;
        }
        case ValueType::kInt64:
        case ValueType::kTimestamp: v.i64.push_back(st.has ? static_cast<int64_t>(st.bits) : 0); break;
        case ValueType::kUInt64: v.u64.push_back(st.has ? st.bits : 0); break;
        case ValueType::kBool: v.b.push_back(st.has && st.bits != 0 ? 1 : 0); break;
        case ValueType::kString:
          if (!st.has) {
            v.str.emplace_back();
          } else if (aggs_[a].column.kind == ScanColumn::Kind::kTag) {
            v.str.emplace_back(st.tag);
          } else {
            v.str.push_back(std::move(best_strings_[g * naggs + a]));  // each group is emitted once
          }
          break;
        default: break;
      }
      set_valid(&v, row, st.has);
    }
  }
  emitted_ = end;
  *done = emitted_ >= groups_;
  return Status::OK();
}

}  // namespace gnomon::query
