#include "src/query/execution/bucket_aggregate_operator.h"

#include <algorithm>
#include <thread>
#include <type_traits>
#include <unordered_map>


namespace gnomon::query {

namespace {

struct GroupKeyHash {
  size_t operator()(const std::pair<uint32_t, int64_t>& k) const {
    uint64_t h = static_cast<uint64_t>(k.second) * 0x9E3779B97F4A7C15ull;
    return static_cast<size_t>(h ^ (static_cast<uint64_t>(k.first) * 0xC2B2AE3D27D4EB4Full));
  }
};

template <typename T>
void MinMaxRun(AggState* st, bool is_min, const T* v, const uint8_t* valid, size_t begin, size_t end,
               Value (*make)(T), T Value::*field) {
  for (size_t r = begin; r < end; ++r) {
    if (valid != nullptr && !valid[r]) continue;
    T x = v[r];
    if constexpr (std::is_floating_point_v<T>) {
      if (x != x) continue;  // NaN is skipped
    }
    if (!st->has) {
      st->best = make(x);
      st->has = true;
    } else if (is_min ? x < st->best.*field : x > st->best.*field) {
      st->best.*field = x;
    }
  }
}

// Folds rows [begin, end) of one column into a running aggregate without building Values: the
// kind and type are decided once per run, the row loops are tight.
void UpdateRun(AggState* st, const AggregateSpec& spec, const storage::ColumnVector* col,
               size_t begin, size_t end) {
  if (spec.kind == AggKind::kCountStar) {
    st->count += static_cast<int64_t>(end - begin);
    return;
  }
  if (col == nullptr || col->type == ValueType::kNull) return;
  const uint8_t* valid = col->validity;
  size_t n = end - begin;
  if (valid != nullptr) {
    n = 0;
    for (size_t r = begin; r < end; ++r) n += valid[r] != 0;
  }
  switch (spec.kind) {
    case AggKind::kCount: st->count += static_cast<int64_t>(n); return;
    case AggKind::kSum:
    case AggKind::kAvg: {
      st->count += static_cast<int64_t>(n);
      switch (col->type) {
        case ValueType::kInt64: {
          __int128 acc = 0;
          for (size_t r = begin; r < end; ++r) {
            if (valid == nullptr || valid[r]) acc += col->i64[r];
          }
          __int128 total = static_cast<__int128>(st->isum) + acc;
          if (total > INT64_MAX || total < INT64_MIN) st->int_overflow = true;
          st->isum = static_cast<int64_t>(total);
          st->sum += static_cast<double>(acc);
          return;
        }
        case ValueType::kFloat64: {
          double acc = 0;
          for (size_t r = begin; r < end; ++r) {
            if (valid == nullptr || valid[r]) acc += col->f64[r];
          }
          st->sum += acc;
          return;
        }
        case ValueType::kUInt64: {
          double acc = 0;
          for (size_t r = begin; r < end; ++r) {
            if (valid == nullptr || valid[r]) acc += static_cast<double>(col->u64[r]);
          }
          st->sum += acc;
          return;
        }
        case ValueType::kBool: {
          int64_t acc = 0;
          for (size_t r = begin; r < end; ++r) {
            if (valid == nullptr || valid[r]) acc += col->b[r];
          }
          st->isum += acc;
          st->sum += static_cast<double>(acc);
          return;
        }
        default: return;
      }
    }
    case AggKind::kMin:
    case AggKind::kMax: {
      const bool is_min = spec.kind == AggKind::kMin;
      switch (col->type) {
        case ValueType::kInt64:
          MinMaxRun<int64_t>(st, is_min, col->i64, valid, begin, end, &Value::Int, &Value::i);
          return;
        case ValueType::kFloat64:
          MinMaxRun<double>(st, is_min, col->f64, valid, begin, end, &Value::Float, &Value::f);
          return;
        case ValueType::kUInt64:
          MinMaxRun<uint64_t>(st, is_min, col->u64, valid, begin, end, &Value::UInt, &Value::u);
          return;
        case ValueType::kBool:
          for (size_t r = begin; r < end; ++r) {
            if (valid != nullptr && !valid[r]) continue;
            bool v = col->b[r] != 0;
            if (!st->has) {
              st->best = Value::Bool(v);
              st->has = true;
            } else if (is_min ? v < st->best.b : v > st->best.b) {
              st->best.b = v;
            }
          }
          return;
        default: return;
      }
    }
    default: return;
  }
}

}  // namespace

struct BucketAggregateOperator::Partial {
  std::unordered_map<std::pair<uint32_t, int64_t>, uint32_t, GroupKeyHash> index;
  std::vector<std::pair<uint32_t, int64_t>> keys;
  std::vector<std::vector<AggState>> states;

  std::vector<AggState>& Get(uint32_t tag_group, int64_t bucket, size_t naggs) {
    auto [it, inserted] = index.emplace(std::make_pair(tag_group, bucket), static_cast<uint32_t>(keys.size()));
    if (inserted) {
      keys.emplace_back(tag_group, bucket);
      states.emplace_back(naggs);
    }
    return states[it->second];
  }
};

class BucketAggregateOperator::Consumer final : public storage::ScanConsumer {
 public:
  Consumer(const BucketAggregateOperator& op, const std::vector<uint32_t>& series_group,
           const std::vector<int>& agg_column, Partial* partial)
      : op_(op), series_group_(series_group), agg_column_(agg_column), partial_(partial) {}

  void SetSeriesIndex(size_t i) { series_index_ = i; }

  int64_t BucketOf(int64_t t) const { return bucket_key_ ? bucket_key_->bucket.Apply(t) : 0; }

  bool OnBatch(const storage::ColumnBatch& batch) override {
    const uint32_t tg = series_group_[series_index_];
    const size_t naggs = op_.specs_.size();
    size_t r = 0;
    while (r < batch.rows) {
      const int64_t b = BucketOf(batch.times[r]);
      size_t end = batch.rows;
      // Rows come in time order: the run lasts until the first row past the bucket's end
      // (or before its start, for newest-first order).
      if (bucket_key_) {
        const int64_t limit = bucket_key_->bucket.BucketEnd(b);
        end = r + 1;
        while (end < batch.rows && batch.times[end] < limit && batch.times[end] >= b) ++end;
      }
      std::vector<AggState>& states = partial_->Get(tg, b, naggs);
      for (size_t a = 0; a < naggs; ++a) {
        const storage::ColumnVector* col =
            agg_column_[a] >= 0 ? &batch.columns[agg_column_[a]] : nullptr;
        UpdateRun(&states[a], op_.specs_[a], col, r, end);
      }
      r = end;
    }
    return true;
  }

  bool CanUseStats(int64_t min_time, int64_t max_time) override {
    return !bucket_key_ || BucketOf(min_time) == BucketOf(max_time);
  }

  bool OnBlockStats(const storage::BlockStatsView& stats) override {
    const int64_t b = BucketOf(stats.min_time);
    if (bucket_key_ && BucketOf(stats.max_time) != b) return false;
    const uint32_t tg = series_group_[series_index_];
    std::vector<AggState>& states = partial_->Get(tg, b, op_.specs_.size());
    for (size_t a = 0; a < op_.specs_.size(); ++a) {
      storage::ColumnStats none;
      const storage::ColumnStats& s = agg_column_[a] >= 0 ? stats.columns[agg_column_[a]] : none;
      states[a].MergeStats(op_.specs_[a], s, stats.rows);
    }
    return true;
  }

  const BucketGroupKey* bucket_key_ = nullptr;

 private:
  const BucketAggregateOperator& op_;
  const std::vector<uint32_t>& series_group_;
  const std::vector<int>& agg_column_;
  Partial* partial_;
  size_t series_index_ = 0;
};

BucketAggregateOperator::BucketAggregateOperator(
    std::shared_ptr<storage::TableReader> reader, std::string table,
    std::vector<storage::SeriesId> series, int64_t min_time, int64_t max_time,
    std::vector<BucketGroupKey> keys, std::vector<BucketAggregate> aggregates,
    ExecutionContext* ctx, int threads)
    : reader_(std::move(reader)), table_(std::move(table)), series_(std::move(series)),
      min_time_(min_time), max_time_(max_time), keys_(std::move(keys)),
      aggs_(std::move(aggregates)), ctx_(ctx), threads_(std::max(1, threads)) {
  for (const BucketGroupKey& k : keys_) {
    schema_.push_back(ResultColumn{
        k.name, k.kind == BucketGroupKey::Kind::kBucket ? ValueType::kTimestamp : ValueType::kString});
  }
  for (BucketAggregate& a : aggs_) {
    schema_.push_back(ResultColumn{a.spec.text, a.spec.result_type});
    specs_.push_back(std::move(a.spec));
  }
}

std::string BucketAggregateOperator::Describe() const {
  std::string d = "BucketAggregate " + table_ + ": " + std::to_string(series_.size()) +
                  " series, block statistics where a block fits one bucket; keys";
  if (newest_buckets_ > 0) d = "BucketAggregate (newest " + std::to_string(newest_buckets_) + " buckets) " + d.substr(16);
  for (const BucketGroupKey& k : keys_) d += " " + k.name;
  d += "; aggregates";
  for (const AggregateSpec& s : specs_) d += " " + s.text;
  return d;
}

Status BucketAggregateOperator::Compute() {
  const BucketGroupKey* bucket = nullptr;
  for (const BucketGroupKey& k : keys_) {
    if (k.kind == BucketGroupKey::Kind::kBucket) bucket = &k;
  }
  if (newest_buckets_ == 0 || bucket == nullptr || keys_.size() != 1) {
    return Aggregate(min_time_, max_time_);
  }
  int64_t data_min, data_max;
  reader_->TimeRange(&data_min, &data_max);
  if (data_min > data_max) return Aggregate(min_time_, max_time_);
  const int64_t hi = std::min(max_time_, data_max);
  const int64_t lowest = std::max(min_time_, data_min);
  if (hi < lowest) return Aggregate(min_time_, max_time_);
  // Start with exactly n buckets back from the newest; double the span until n are found or the
  // window reaches the oldest data. Window starts are bucket starts, so every bucket inside the
  // window is complete.
  int64_t span = 0;
  int64_t b = bucket->bucket.Apply(hi);
  for (size_t i = 1; i < newest_buckets_; ++i) {
    int64_t prev = bucket->bucket.Apply(b - 1);
    span += b - prev;
    b = prev;
  }
  while (true) {
    int64_t lo = bucket->bucket.Apply(hi - std::min(span, hi - INT64_MIN / 2));
    group_keys_.clear();
    group_states_.clear();
    if (lo <= lowest) return Aggregate(min_time_, max_time_);
    GNOMON_RETURN_IF_ERROR(Aggregate(lo, hi));
    if (group_keys_.size() >= newest_buckets_) return Status::OK();
    span = span > INT64_MAX / 4 ? INT64_MAX / 2 : std::max<int64_t>(span * 2, 1);
  }
}

Status BucketAggregateOperator::Aggregate(int64_t min_time, int64_t max_time) {
  // Tag groups: series with the same values of the grouped tags share one.
  std::vector<std::string> tags;
  for (const BucketGroupKey& k : keys_) {
    if (k.kind == BucketGroupKey::Kind::kTag) tags.push_back(k.tag);
  }
  TagGroups groups(*reader_, std::move(tags));
  std::vector<uint32_t> series_group(series_.size());
  for (size_t i = 0; i < series_.size(); ++i) series_group[i] = groups.GroupOf(series_[i]);
  // Field columns to read, and each aggregate's position among them.
  storage::ScanSpec spec;
  spec.min_time = min_time;
  spec.max_time = max_time;
  spec.offer_stats = true;
  std::vector<int> agg_column(aggs_.size(), -1);
  for (size_t a = 0; a < aggs_.size(); ++a) {
    if (aggs_[a].field.empty()) continue;
    auto it = std::find(spec.columns.begin(), spec.columns.end(), aggs_[a].field);
    if (it == spec.columns.end()) {
      spec.columns.push_back(aggs_[a].field);
      it = spec.columns.end() - 1;
    }
    agg_column[a] = static_cast<int>(it - spec.columns.begin());
  }
  const BucketGroupKey* bucket_key = nullptr;
  for (const BucketGroupKey& k : keys_) {
    if (k.kind == BucketGroupKey::Kind::kBucket) bucket_key = &k;
  }

  const int nthreads = series_.size() >= 64 ? threads_ : 1;
  std::vector<Partial> partials(nthreads);
  std::vector<Status> statuses(nthreads);
  std::vector<storage::ScanMetrics> metrics(nthreads);
  auto work = [&](int t) {
    const size_t begin = series_.size() * t / nthreads;
    const size_t end = series_.size() * (t + 1) / nthreads;
    Consumer consumer(*this, series_group, agg_column, &partials[t]);
    consumer.bucket_key_ = bucket_key;
    storage::ScanSpec one = spec;
    for (size_t i = begin; i < end; ++i) {
      if ((i & 63) == 0) {
        Status s = ctx_->Check();
        if (!s.ok()) {
          statuses[t] = s;
          return;
        }
      }
      one.series.assign(1, series_[i]);
      consumer.SetSeriesIndex(i);
      Status s = reader_->Scan(one, &consumer, &metrics[t]);
      if (!s.ok()) {
        statuses[t] = s;
        return;
      }
    }
  };
  std::vector<std::thread> pool;
  for (int t = 1; t < nthreads; ++t) pool.emplace_back(work, t);
  work(0);
  for (auto& th : pool) th.join();
  for (const Status& s : statuses) GNOMON_RETURN_IF_ERROR(s);
  for (const auto& m : metrics) {
    ctx_->stats.series_scanned += m.series_scanned;
    ctx_->stats.blocks_decoded += m.blocks_decoded;
    ctx_->stats.blocks_from_stats += m.blocks_from_stats;
    ctx_->stats.blocks_pruned += m.blocks_pruned;
    ctx_->stats.rows_scanned += m.rows_produced;
  }
  Partial& total = partials[0];
  for (int t = 1; t < nthreads; ++t) {
    for (size_t g = 0; g < partials[t].keys.size(); ++g) {
      auto [tg, b] = partials[t].keys[g];
      std::vector<AggState>& dst = total.Get(tg, b, specs_.size());
      for (size_t a = 0; a < specs_.size(); ++a) dst[a].Merge(specs_[a], partials[t].states[g][a]);
    }
  }
  // Deterministic output: by tag group (first-seen order of ascending series), then bucket.
  std::vector<uint32_t> order(total.keys.size());
  for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](uint32_t x, uint32_t y) { return total.keys[x] < total.keys[y]; });
  group_keys_.reserve(order.size());
  for (uint32_t g : order) {
    auto [tg, b] = total.keys[g];
    std::vector<Value> kv;
    size_t tag_i = 0;
    for (const BucketGroupKey& k : keys_) {
      if (k.kind == BucketGroupKey::Kind::kBucket) kv.push_back(Value::Timestamp(b));
      else kv.push_back(groups.Values(tg)[tag_i++]);
    }
    group_keys_.push_back(std::move(kv));
    group_states_.push_back(std::move(total.states[g]));
  }
  AddEmptyGroupIfNoKeys(keys_.size());
  return Status::OK();
}

}  // namespace gnomon::query
