#include "src/query/execution/last_value_aggregate_operator.h"

#include <atomic>
#include <cstring>
#include <memory>
#include <span>

#include "src/base/hash.h"
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
    fetch_fields_.push_back(a.column.kind == ScanColumn::Kind::kField ? idx : -1);
    agg_tag_.push_back(a.column.kind == ScanColumn::Kind::kTag ? static_cast<int>(tag_index(a.column.name)) : -1);
    if (IsStringField(a.column)) has_string_fields_ = true;
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

uint32_t LastValueAggregateOperator::GroupOf(const std::string_view* tags, const uint32_t* value_ids) {
  const uint32_t next = static_cast<uint32_t>(groups_);
  uint32_t group = next;
  const size_t nkeys = key_tag_.size();
  if (nkeys == 0) {
    group = 0;
  } else if (nkeys == 1) {
    const uint32_t id = value_ids[key_tag_[0]];
    uint32_t* slot = &null_key_group_;
    if (id != storage::TableReader::kNoTagValue) {
      if (id >= group_of_value_.size()) {
        group_of_value_.resize(std::max<size_t>(id + 1, 2 * group_of_value_.size()), UINT32_MAX);
      }
      slot = &group_of_value_[id];
    }
    if (*slot == UINT32_MAX) *slot = next;
    group = *slot;
  } else {
    // A missing tag's kNoTagValue is never a value id: the ids alone tell the groups apart.
    key_scratch_.resize(nkeys);
    const uint32_t* ids = key_scratch_.data();
    for (size_t k = 0; k < nkeys; ++k) key_scratch_[k] = value_ids[key_tag_[k]];
    const size_t key_bytes = nkeys * sizeof(uint32_t);
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
    const uint64_t hash = Hash64(std::string_view(reinterpret_cast<const char*>(ids), key_bytes));
    size_t i = hash & (slots_.size() - 1);
    for (;; i = (i + 1) & (slots_.size() - 1)) {
      const Slot& s = slots_[i];
      if (s.group == UINT32_MAX) break;
      if (s.hash == hash && std::memcmp(&encoded_keys_[s.group * nkeys], ids, key_bytes) == 0) {
        group = s.group;
        break;
      }
    }
    if (group == next) {
      slots_[i] = Slot{hash, next};
      encoded_keys_.insert(encoded_keys_.end(), ids, ids + nkeys);
    }
  }
  if (group == next) {
    ++groups_;
    for (size_t k : key_tag_) group_keys_.push_back(tags[k]);
    if (has_string_fields_) best_strings_.resize(best_strings_.size() + aggs_.size());
  }
  return group;
}

Status LastValueAggregateOperator::Fetch(size_t begin, size_t end, size_t block_begin) {
  const size_t naggs = aggs_.size();
  const size_t ntags = tags_.size();
  storage::LastValues last;
  for (size_t step = begin; step < end; step += kFetchStep) {
    GNOMON_RETURN_IF_ERROR(ctx_->Check());
    const size_t step_end = std::min(end, step + kFetchStep);
    const std::span<const storage::SeriesId> ids(series_.data() + step, step_end - step);
    reader_->LastValuesOf(ids, fetch_fields_, &last);
    reader_->SeriesTagColumns(ids, tags_, &fetched_tags_[(step - block_begin) * ntags],
                              &fetched_value_ids_[(step - block_begin) * ntags]);
    for (size_t s = step; s < step_end; ++s) {
      const size_t i = s - block_begin;
      const size_t j = s - step;
      present_[i] = last.present[j];
      if (!present_[i]) continue;
      const std::string_view* tags = &fetched_tags_[i * ntags];
      Best* cand = &candidates_[i * naggs];
      for (size_t a = 0; a < naggs; ++a) {
        Best& c = cand[a];
        c = Best{};
        c.time = last.times[j];
        const ScanColumn& col = aggs_[a].column;
        switch (col.kind) {
          case ScanColumn::Kind::kTime:
            c.has = true;
            c.bits = static_cast<uint64_t>(c.time);
            break;
          case ScanColumn::Kind::kTag:
            c.tag_data = tags[agg_tag_[a]].data();
            c.tag_size = static_cast<uint32_t>(tags[agg_tag_[a]].size());
            c.has = c.tag_size != 0;  // a series without the tag gives nothing
            break;
          case ScanColumn::Kind::kField: {
            const size_t slot = j * naggs + a;
            if (!last.valid[slot]) {
              c.scan = true;  // the newest row lacks this field: its newest value is further back
              break;
            }
            c.has = true;
            if (col.type == ValueType::kString) {
              candidate_strings_[i * naggs + a] = std::move(last.strings[slot]);
            } else {
              c.bits = last.bits[slot];
            }
            break;
          }
        }
      }
    }
  }
  return Status::OK();
}

Status LastValueAggregateOperator::FetchShared(size_t begin, size_t end) {
  // Both slots take steps of series from one counter: a helper that starts late finds fewer
  // (or none) left, and this thread never waits for one that has not started.
  std::atomic<size_t> next{begin};
  Status statuses[2];
  ctx_->ParallelFor(2, [&](int slot) {
    for (size_t i; (i = next.fetch_add(kFetchStep)) < end;) {
      Status s = Fetch(i, std::min(end, i + kFetchStep), begin);
      if (!s.ok()) {
        statuses[slot] = std::move(s);
        next.store(end);
        return;
      }
    }
  });
  GNOMON_RETURN_IF_ERROR(statuses[0]);
  return statuses[1];
}

Status LastValueAggregateOperator::Compute() {
  GNOMON_RETURN_IF_ERROR(reader_->CheckLastValues());
  const size_t naggs = aggs_.size();
  const size_t ntags = tags_.size();
  // Typically (last points per host) each series is its own group: room for that many up front
  // (address space only until touched) saves regrowing and copying the states.
  if (!key_tag_.empty()) best_.reserve(std::min<size_t>(series_.size(), 1 << 16) * naggs);
  // Blocks of series: first each series' cached row and tags are fetched (in two halves on two
  // threads when allowed), then merged into the groups in series order. A block holds a fleet of
  // a few thousand hosts whole (one hand-off to a helper, whose wake-up costs as much as fetching
  // a thousand series), and its buffers stay at a few MB at any series count.
  constexpr size_t kBlock = 4096;
  constexpr size_t kMinParallel = 512;
  const size_t block = std::min(kBlock, series_.size());
  present_.resize(block);
  fetched_tags_.resize(block * ntags);
  fetched_value_ids_.resize(block * ntags);
  candidates_.resize(block * naggs);
  if (has_string_fields_) candidate_strings_.resize(block * naggs);
  for (size_t b = 0; b < series_.size(); b += kBlock) {
    const size_t e = std::min(series_.size(), b + kBlock);
    if (ctx_->threads > 1 && e - b >= kMinParallel) {
      GNOMON_RETURN_IF_ERROR(FetchShared(b, e));
    } else {
      GNOMON_RETURN_IF_ERROR(Fetch(b, e, b));
    }
    for (size_t s = b; s < e; ++s) {
      const size_t i = s - b;
      if (!present_[i]) continue;
      ++ctx_->stats.series_scanned;
      const uint32_t group = GroupOf(&fetched_tags_[i * ntags], &fetched_value_ids_[i * ntags]);
      const Best* cand = &candidates_[i * naggs];
      if (best_.size() < groups_ * naggs) {
        // A new group starts from this series' candidates, copied once rather than zero-filled
        // and then overwritten. Values it holds are taken below; a candidate that needs a scan
        // has no value yet (has is false) and takes the scan path.
        best_.insert(best_.end(), cand, cand + naggs);
        if (has_string_fields_) {
          for (size_t a = 0; a < naggs; ++a) {
            if (cand[a].has && IsStringField(aggs_[a].column)) {
              best_strings_[static_cast<size_t>(group) * naggs + a] = std::move(candidate_strings_[i * naggs + a]);
            }
          }
        }
      }
      Best* best = &best_[static_cast<size_t>(group) * naggs];
      for (size_t a = 0; a < naggs; ++a) {
        Best& st = best[a];
        const Best& c = cand[a];
        // Another series of the group already gave a value at least as new as anything this
        // series holds (its rows are all at or before its newest time): nothing to do.
        if (st.has && c.time <= st.time) continue;
        const size_t slot = static_cast<size_t>(group) * naggs + a;
        if (c.scan) {
          bool found = false;
          int64_t t = 0;
          uint64_t bits = 0;
          std::string str;
          GNOMON_RETURN_IF_ERROR(NewestValue(series_[s], aggs_[a].column, &bits, &str, &t, &found));
          if (!found || (st.has && t <= st.time)) continue;
          st = Best{};
          st.has = true;
          st.time = t;
          st.bits = bits;
          if (aggs_[a].column.type == ValueType::kString) best_strings_[slot] = std::move(str);
          continue;
        }
        if (!c.has) continue;
        st = c;
        if (IsStringField(aggs_[a].column)) {
          best_strings_[slot] = std::move(candidate_strings_[i * naggs + a]);
        }
      }
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
  // Column by column: one type dispatch per column, and each column written in one pass.
  auto set_validity = [&](Vector* v, auto&& valid_at) {
    bool all = true;
    for (size_t g = begin; g < end && all; ++g) all = valid_at(g);
    if (all) return;  // no validity bytes: every row holds a value
    v->validity.resize(chunk->rows);
    for (size_t g = begin; g < end; ++g) v->validity[g - begin] = valid_at(g) ? 1 : 0;
  };
  for (size_t k = 0; k < nkeys; ++k) {
    Vector& v = chunk->columns[k];
    if (string_views_) {
      // The registry's bytes outlive the chunk: reader_ holds them until the query ends.
      v.views = true;
      v.str_views.reserve(chunk->rows);
      for (size_t g = begin; g < end; ++g) v.str_views.push_back(group_keys_[g * nkeys + k]);
    } else {
      for (size_t g = begin; g < end; ++g) v.str.emplace_back(group_keys_[g * nkeys + k]);
    }
    set_validity(&v, [&](size_t g) { return !group_keys_[g * nkeys + k].empty(); });
  }
  for (size_t a = 0; a < naggs; ++a) {
    Vector& v = chunk->columns[nkeys + a];
    auto best = [&](size_t g) -> const Best& { return best_[g * naggs + a]; };
    switch (v.type) {
      case ValueType::kFloat64:
        for (size_t g = begin; g < end; ++g) {
          double d = 0;
          if (best(g).has) std::memcpy(&d, &best(g).bits, 8);
          v.f64.push_back(d);
        }
        break;
      case ValueType::kInt64:
      case ValueType::kTimestamp:
        for (size_t g = begin; g < end; ++g) v.i64.push_back(best(g).has ? static_cast<int64_t>(best(g).bits) : 0);
        break;
      case ValueType::kUInt64:
        for (size_t g = begin; g < end; ++g) v.u64.push_back(best(g).has ? best(g).bits : 0);
        break;
      case ValueType::kBool:
        for (size_t g = begin; g < end; ++g) v.b.push_back(best(g).has && best(g).bits != 0 ? 1 : 0);
        break;
      case ValueType::kString:
        if (string_views_ && aggs_[a].column.kind == ScanColumn::Kind::kTag) {
          v.views = true;
          v.str_views.reserve(chunk->rows);
          for (size_t g = begin; g < end; ++g) v.str_views.push_back(best(g).has ? best(g).tag() : std::string_view());
          break;
        }
        for (size_t g = begin; g < end; ++g) {
          const Best& st = best(g);
          if (!st.has) {
            v.str.emplace_back();
          } else if (aggs_[a].column.kind == ScanColumn::Kind::kTag) {
            v.str.emplace_back(st.tag());
          } else {
            v.str.push_back(std::move(best_strings_[g * naggs + a]));  // each group is emitted once
          }
        }
        break;
      default: break;
    }
    set_validity(&v, [&](size_t g) { return best(g).has; });
  }
  emitted_ = end;
  *done = emitted_ >= groups_;
  return Status::OK();
}

}  // namespace gnomon::query
