#include "src/query/execution/bucket_aggregate_operator.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <type_traits>

namespace gnomon::query {

namespace {

enum class Slot : uint8_t { kInt, kFloat, kUInt };

Slot SlotOf(ValueType t) {
  switch (t) {
    case ValueType::kFloat64: return Slot::kFloat;
    case ValueType::kUInt64: return Slot::kUInt;
    default: return Slot::kInt;
  }
}

// Offers x as a new min (is_min) or max.
template <typename T>
inline void Offer(BucketState* st, bool is_min, T x, T BucketState::Best::*field) {
  if (!st->has) {
    st->best.*field = x;
    st->has = true;
  } else if (is_min ? x < st->best.*field : x > st->best.*field) {
    st->best.*field = x;
  }
}

template <typename T>
void MinMaxRun(BucketState* st, bool is_min, const T* v, const uint8_t* valid, size_t begin, size_t end,
               T BucketState::Best::*field) {
  for (size_t r = begin; r < end; ++r) {
    if (valid != nullptr && !valid[r]) continue;
    T x = v[r];
    if constexpr (std::is_floating_point_v<T>) {
      if (x != x) continue;  // NaN is skipped
    }
    Offer(st, is_min, x, field);
  }
}

// Folds rows [begin, end) of one column into a running aggregate without building Values: the
// kind and type are decided once per run, the row loops are tight.
void UpdateRun(BucketState* st, const AggregateSpec& spec, const storage::ColumnVector* col,
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
        case ValueType::kInt64: MinMaxRun<int64_t>(st, is_min, col->i64, valid, begin, end, &BucketState::Best::i); return;
        case ValueType::kFloat64: MinMaxRun<double>(st, is_min, col->f64, valid, begin, end, &BucketState::Best::f); return;
        case ValueType::kUInt64: MinMaxRun<uint64_t>(st, is_min, col->u64, valid, begin, end, &BucketState::Best::u); return;
        case ValueType::kBool:
          for (size_t r = begin; r < end; ++r) {
            if (valid != nullptr && !valid[r]) continue;
            Offer<int64_t>(st, is_min, col->b[r] != 0, &BucketState::Best::i);
          }
          return;
        default: return;
      }
    }
    default: return;
  }
}

// Takes rows [begin, end) of one column back out of a running count/sum (the rows are among those
// of statistics merged before). Only for Subtractable() aggregates.
void SubtractRun(BucketState* st, const AggregateSpec& spec, const storage::ColumnVector* col, size_t begin,
                 size_t end) {
  if (spec.kind == AggKind::kCountStar) {
    st->count -= static_cast<int64_t>(end - begin);
    return;
  }
  if (col == nullptr || col->type == ValueType::kNull) return;
  const uint8_t* valid = col->validity;
  int64_t n = 0;
  for (size_t r = begin; r < end; ++r) n += valid == nullptr || valid[r] != 0;
  st->count -= n;
  if (spec.kind == AggKind::kCount) return;
  __int128 acc = 0;  // Subtractable(): an int64 or bool column
  for (size_t r = begin; r < end; ++r) {
    if (valid != nullptr && !valid[r]) continue;
    acc += col->type == ValueType::kInt64 ? col->i64[r] : col->b[r];
  }
  const __int128 total = static_cast<__int128>(st->isum) - acc;
  if (total > INT64_MAX || total < INT64_MIN) st->int_overflow = true;
  st->isum = static_cast<int64_t>(total);
  st->sum -= static_cast<double>(acc);
}

// Whether statistics less rows give this aggregate exactly: counts, and sums of integer (and bool)
// columns, whose statistics keep exact sums. (min/max cannot be subtracted, float sums would round.)
bool Subtractable(const AggregateSpec& spec) {
  switch (spec.kind) {
    case AggKind::kCountStar:
    case AggKind::kCount: return true;
    case AggKind::kSum:
    case AggKind::kAvg: return spec.arg->type == ValueType::kInt64 || spec.arg->type == ValueType::kBool;
    default: return false;
  }
}

// Block or slice statistics of the aggregate's column (as AggState::MergeStats).
void MergeStats(BucketState* st, const AggregateSpec& spec, const storage::ColumnStats& s, uint32_t rows) {
  switch (spec.kind) {
    case AggKind::kCountStar: st->count += rows; return;
    case AggKind::kCount: st->count += s.count; return;
    case AggKind::kSum:
    case AggKind::kAvg:
      if (s.count == 0) return;
      st->count += s.count;
      st->sum += s.sum;
      if (spec.arg->type == ValueType::kInt64 || spec.arg->type == ValueType::kBool) {
        // Segments keep exact sums of int columns; older statistics (a double) are exact below 2^53.
        if (s.isum_exact) {
          if (__builtin_add_overflow(st->isum, s.isum, &st->isum)) st->int_overflow = true;
        } else if (std::fabs(s.sum) >= 9007199254740992.0 ||
                   __builtin_add_overflow(st->isum, static_cast<int64_t>(s.sum), &st->isum)) {
          st->int_overflow = true;
        }
      }
      return;
    case AggKind::kMin:
    case AggKind::kMax: {
      if (s.count == 0 || !s.has_numeric) return;
      const bool is_min = spec.kind == AggKind::kMin;
      switch (spec.arg->type) {
        case ValueType::kInt64: Offer<int64_t>(st, is_min, is_min ? s.imin : s.imax, &BucketState::Best::i); return;
        case ValueType::kUInt64:
          Offer<uint64_t>(st, is_min, static_cast<uint64_t>(is_min ? s.min : s.max), &BucketState::Best::u);
          return;
        case ValueType::kBool: Offer<int64_t>(st, is_min, (is_min ? s.min : s.max) != 0, &BucketState::Best::i); return;
        default: {
          const double v = is_min ? s.min : s.max;
          if (!std::isnan(v)) Offer<double>(st, is_min, v, &BucketState::Best::f);
          return;
        }
      }
    }
    default: return;
  }
}

// Another thread's state of the same group (as AggState::Merge).
void Merge(BucketState* st, const AggregateSpec& spec, const BucketState& o) {
  switch (spec.kind) {
    case AggKind::kCountStar:
    case AggKind::kCount: st->count += o.count; return;
    case AggKind::kSum:
    case AggKind::kAvg:
      st->count += o.count;
      st->sum += o.sum;
      if (__builtin_add_overflow(st->isum, o.isum, &st->isum) || o.int_overflow) st->int_overflow = true;
      return;
    case AggKind::kMin:
    case AggKind::kMax: {
      if (!o.has) return;
      const bool is_min = spec.kind == AggKind::kMin;
      switch (SlotOf(spec.arg->type)) {
        case Slot::kInt: Offer(st, is_min, o.best.i, &BucketState::Best::i); return;
        case Slot::kFloat: Offer(st, is_min, o.best.f, &BucketState::Best::f); return;
        case Slot::kUInt: Offer(st, is_min, o.best.u, &BucketState::Best::u); return;
      }
      return;
    }
    default: return;
  }
}

// avg over count > 0 rows: exact integer sums where they did not overflow.
double AverageOf(const BucketState& st, const AggregateSpec& spec) {
  if ((spec.arg->type == ValueType::kInt64 || spec.arg->type == ValueType::kBool) && !st.int_overflow) {
    return static_cast<double>(st.isum) / static_cast<double>(st.count);
  }
  return st.sum / static_cast<double>(st.count);
}

// The aggregate's value (as AggState::Finalize).
Result<Value> ResultOf(const BucketState& st, const AggregateSpec& spec) {
  switch (spec.kind) {
    case AggKind::kCountStar:
    case AggKind::kCount: return Value::Int(st.count);
    case AggKind::kSum:
      if (st.count == 0) return Value::Null();
      if (spec.result_type == ValueType::kInt64) {
        if (st.int_overflow) return Status::OutOfRange("sum(" + spec.arg->name + ") overflows int64");
        return Value::Int(st.isum);
      }
      if (spec.result_type == ValueType::kUInt64) return Value::UInt(static_cast<uint64_t>(st.sum));
      return Value::Float(st.sum);
    case AggKind::kAvg:
      if (st.count == 0) return Value::Null();
      return Value::Float(AverageOf(st, spec));
    case AggKind::kMin:
    case AggKind::kMax:
      if (!st.has) return Value::Null();
      switch (spec.arg->type) {
        case ValueType::kFloat64: return Value::Float(st.best.f);
        case ValueType::kUInt64: return Value::UInt(st.best.u);
        case ValueType::kBool: return Value::Bool(st.best.i != 0);
        case ValueType::kTimestamp: return Value::Timestamp(st.best.i);
        default: return Value::Int(st.best.i);
      }
    default: return Status::Internal("bucket aggregate: unsupported aggregate " + spec.text);
  }
}

}  // namespace

// One thread's groups: an open-addressing table (linear probing) from (tag group, bucket) to a
// group number, and the groups' aggregate states in one flat array (naggs per group). A scan of
// 4,000 hosts x 13 hours makes ~50,000 groups and a lookup per block or bucket run; node-based
// maps and a vector per group cost more than the aggregation itself.
struct BucketAggregateOperator::Partial {
  Partial(size_t naggs, ExecutionContext* ctx) : naggs(naggs), ctx(ctx) {}

  size_t naggs;
  // New groups are charged to the query's memory limit, kChargeEvery at a time; past the limit
  // `status` says so and the scan feeding this table stops.
  static constexpr size_t kChargeEvery = 1024;
  ExecutionContext* ctx;
  Status status;
  size_t uncharged = 0;
  std::vector<std::pair<uint32_t, int64_t>> keys;
  std::vector<BucketState> states;  // group g's states: [g * naggs, (g + 1) * naggs)
  std::vector<uint32_t> slots;   // group number + 1; 0 = empty
  uint32_t last = UINT32_MAX;    // the group found last: consecutive rows usually repeat it

  BucketState* Get(uint32_t tag_group, int64_t bucket) {
    if (last != UINT32_MAX && keys[last].first == tag_group && keys[last].second == bucket) {
      return &states[size_t{last} * naggs];
    }
    if ((keys.size() + 1) * 2 > slots.size()) Grow();
    const size_t mask = slots.size() - 1;
    for (size_t i = Hash(tag_group, bucket) & mask;; i = (i + 1) & mask) {
      const uint32_t slot = slots[i];
      if (slot == 0) {
        slots[i] = static_cast<uint32_t>(keys.size() + 1);
        keys.emplace_back(tag_group, bucket);
        states.resize(states.size() + naggs);
        if (++uncharged == kChargeEvery) {
          uncharged = 0;
          // A group: its key, its states, and (at most) two hash slots.
          Status s = ctx->Reserve(kChargeEvery * (sizeof(keys[0]) + naggs * sizeof(BucketState) + 2 * sizeof(uint32_t)));
          if (!s.ok() && status.ok()) status = std::move(s);
        }
        last = static_cast<uint32_t>(keys.size() - 1);
        return &states[size_t{last} * naggs];
      }
      if (keys[slot - 1].first == tag_group && keys[slot - 1].second == bucket) {
        last = slot - 1;
        return &states[size_t{last} * naggs];
      }
    }
  }

 private:
  static size_t Hash(uint32_t tag_group, int64_t bucket) {
    uint64_t h = static_cast<uint64_t>(bucket) * 0x9E3779B97F4A7C15ull;
    h ^= static_cast<uint64_t>(tag_group) * 0xC2B2AE3D27D4EB4Full;
    return static_cast<size_t>(h ^ (h >> 29));
  }
  void Grow() {
    slots.assign(std::max<size_t>(64, slots.size() * 2), 0);
    const size_t mask = slots.size() - 1;
    for (uint32_t g = 0; g < keys.size(); ++g) {
      size_t i = Hash(keys[g].first, keys[g].second) & mask;
      while (slots[i] != 0) i = (i + 1) & mask;
      slots[i] = g + 1;
    }
  }
};

// All groups of a bounded range of fixed-width buckets, laid out densely by (tag group, bucket):
// a lookup is arithmetic, and threads that scan disjoint tag groups share one table with nothing
// to merge afterwards. Output order (tag group, then bucket) is the table's own order.
struct BucketAggregateOperator::Dense {
  size_t naggs = 0;
  int64_t first_bucket = 0;
  int64_t width = 1;
  size_t buckets = 1;
  ZeroedArray<BucketState> states;  // slot s's states: [s * naggs, (s + 1) * naggs)
  ZeroedArray<uint8_t> used;        // per slot: some row or statistic reached it
  // Per tag group: its states are cleared. The table is allocated uncleared and each tag group's
  // row is cleared on first use by the one thread that scans it: in parallel, and into the cache
  // where it is about to be used. (calloc cleared all of it on one thread first: the heap hands
  // a freed table back, not fresh zeroed pages.)
  ZeroedArray<uint8_t> cleared;

  // The group's states, or nullptr for a bucket outside the planned range (scans deliver only
  // rows in range, so that is a bug; the caller ends the query rather than the process).
  BucketState* Find(uint32_t tag_group, int64_t bucket) {
    if (bucket < first_bucket) return nullptr;
    const auto b = static_cast<uint64_t>(bucket - first_bucket) / static_cast<uint64_t>(width);
    if (b >= buckets) return nullptr;
    if (!cleared[tag_group]) {
      std::memset(static_cast<void*>(&states[size_t{tag_group} * buckets * naggs]), 0,
                  buckets * naggs * sizeof(BucketState));
      cleared[tag_group] = 1;
    }
    const size_t slot = size_t{tag_group} * buckets + b;
    used[slot] = 1;
    return &states[slot * naggs];
  }
};

template <typename Groups>
class BucketAggregateOperator::Consumer final : public storage::ScanConsumer {
 public:
  // group_of_series: tag group by series id.
  Consumer(const BucketAggregateOperator& op, const std::vector<uint32_t>& group_of_series,
           const std::vector<int>& agg_column, Groups* partial)
      : op_(op), group_of_series_(group_of_series), agg_column_(agg_column), partial_(partial) {
    subtractable_ = std::all_of(op_.specs_.begin(), op_.specs_.end(), Subtractable);
  }

  int64_t BucketOf(int64_t t) const { return bucket_key_ ? bucket_key_->bucket.Apply(t) : 0; }

  bool OnBatch(const storage::ColumnBatch& batch) override {
    const uint32_t tg = group_of_series_[batch.series];
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
      BucketState* states = partial_->Get(tg, b);
      for (size_t a = 0; a < naggs; ++a) {
        const storage::ColumnVector* col =
            agg_column_[a] >= 0 ? &batch.columns[agg_column_[a]] : nullptr;
        UpdateRun(&states[a], op_.specs_[a], col, r, end);
      }
      r = end;
    }
    return partial_->status.ok();  // past the memory limit: stop reading
  }

  bool CanUseStats(int64_t min_time, int64_t max_time) override {
    return !bucket_key_ || BucketOf(min_time) == BucketOf(max_time);
  }

  bool CanSubtractStats() override { return subtractable_; }

  void OnBlockStatsLess(const storage::BlockStatsView& stats, const storage::ColumnBatch& less) override {
    const uint32_t tg = group_of_series_[stats.series];
    BucketState* states = partial_->Get(tg, BucketOf(stats.min_time));
    for (size_t a = 0; a < op_.specs_.size(); ++a) {
      storage::ColumnStats none;
      const storage::ColumnStats& s = agg_column_[a] >= 0 ? stats.columns[agg_column_[a]] : none;
      MergeStats(&states[a], op_.specs_[a], s, stats.rows);
      const storage::ColumnVector* col = agg_column_[a] >= 0 ? &less.columns[agg_column_[a]] : nullptr;
      SubtractRun(&states[a], op_.specs_[a], col, 0, less.rows);
    }
  }

  bool OnBlockStats(const storage::BlockStatsView& stats) override {
    const int64_t b = BucketOf(stats.min_time);
    if (bucket_key_ && BucketOf(stats.max_time) != b) return false;
    const uint32_t tg = group_of_series_[stats.series];
    BucketState* states = partial_->Get(tg, b);
    for (size_t a = 0; a < op_.specs_.size(); ++a) {
      storage::ColumnStats none;
      const storage::ColumnStats& s = agg_column_[a] >= 0 ? stats.columns[agg_column_[a]] : none;
      MergeStats(&states[a], op_.specs_[a], s, stats.rows);
    }
    return true;
  }

  const BucketGroupKey* bucket_key_ = nullptr;

 private:
  const BucketAggregateOperator& op_;
  const std::vector<uint32_t>& group_of_series_;
  const std::vector<int>& agg_column_;
  Groups* partial_;
  bool subtractable_ = false;
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
    out_keys_.clear();
    states_.clear();
    if (lo <= lowest) return Aggregate(min_time_, max_time_);
    GNOMON_RETURN_IF_ERROR(Aggregate(lo, hi));
    if (out_keys_.size() >= newest_buckets_) return Status::OK();
    span = span > INT64_MAX / 4 ? INT64_MAX / 2 : std::max<int64_t>(span * 2, 1);
  }
}

Status BucketAggregateOperator::Aggregate(int64_t min_time, int64_t max_time) {
  // Tag groups: series with the same values of the grouped tags share one.
  std::vector<std::string> tags;
  for (const BucketGroupKey& k : keys_) {
    if (k.kind == BucketGroupKey::Kind::kTag) tags.push_back(k.tag);
  }
  groups_ = std::make_unique<TagGroups>(*reader_, std::move(tags));
  TagGroups& groups = *groups_;
  std::vector<uint32_t> group_of_series(series_.empty() ? 0 : *std::max_element(series_.begin(), series_.end()) + 1);
  for (storage::SeriesId id : series_) group_of_series[id] = groups.GroupOf(id);
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

  constexpr size_t kUnitSeries = 64;  // series per unit of work (whole tag groups in dense mode)
  const int nthreads = series_.size() >= kUnitSeries ? threads_ : 1;
  const size_t naggs = specs_.size();
  std::vector<Status> statuses(nthreads);
  std::vector<storage::ScanMetrics> metrics(nthreads);
  // The threads take `units` (ascending series ids each) in turn, thread t into tables[t]:
  // one held up by the machine leaves more units to the other instead of finishing last. The
  // timeout and memory checks run between units.
  auto run = [&](auto* tables, const std::vector<std::vector<storage::SeriesId>>& units) {
    std::atomic<size_t> next_unit{0};
    std::atomic<bool> failed{false};
    auto work = [&](int t) {
      using Table = std::remove_pointer_t<decltype(tables)>;
      Consumer<Table> consumer(*this, group_of_series, agg_column, &tables[t]);
      consumer.bucket_key_ = bucket_key;
      storage::ScanSpec part = spec;
      for (size_t u; !failed.load(std::memory_order_relaxed) && (u = next_unit.fetch_add(1)) < units.size();) {
        Status s = ctx_->Check();
        if (s.ok()) {
          part.series = units[u];
          s = reader_->Scan(part, &consumer, &metrics[t]);
        }
        if (s.ok()) s = tables[t].status;  // e.g. the memory limit, which stops the scan
        if (!s.ok()) {
          statuses[t] = s;
          failed = true;
          return;
        }
      }
    };
    ctx_->ParallelFor(nthreads, work);
  };

  slot_of_group_.clear();
  Dense dense;
  if (PlanDense(groups.size(), bucket_key, min_time, max_time, &dense)) {
    GNOMON_RETURN_IF_ERROR(
        ctx_->Reserve(dense.states.size() * sizeof(BucketState) + dense.used.size() + dense.cleared.size()));
    // Units of whole tag groups: the thread that takes a unit alone writes its groups' slots.
    std::vector<storage::SeriesId> by_group = series_;
    std::stable_sort(by_group.begin(), by_group.end(), [&](storage::SeriesId x, storage::SeriesId y) {
      return group_of_series[x] < group_of_series[y];
    });
    std::vector<std::vector<storage::SeriesId>> parts;
    for (size_t i = 0; i < by_group.size(); ++i) {
      const bool new_group = i == 0 || group_of_series[by_group[i]] != group_of_series[by_group[i - 1]];
      if (parts.empty() || (new_group && parts.back().size() >= kUnitSeries)) parts.emplace_back();
      parts.back().push_back(by_group[i]);
    }
    for (auto& unit : parts) std::sort(unit.begin(), unit.end());
    struct Shared {  // every thread's view of the one dense table (charged when planned)
      Dense* d;
      Status status;
      std::vector<BucketState> spare;  // takes a stray row's values once `status` has failed
      BucketState* Get(uint32_t tg, int64_t b) {
        if (BucketState* st = d->Find(tg, b)) return st;
        if (status.ok()) status = Status::Internal("bucket aggregate: a row outside the planned bucket range");
        return spare.data();
      }
    };
    std::vector<Shared> views(nthreads, Shared{&dense, Status::OK(), std::vector<BucketState>(naggs)});
    run(views.data(), parts);
    for (const Status& s : statuses) GNOMON_RETURN_IF_ERROR(s);
    const size_t buckets = dense.buckets;
    for (size_t slot = 0; slot < dense.used.size(); ++slot) {
      if (!dense.used[slot]) continue;
      const auto tg = static_cast<uint32_t>(slot / buckets);
      const int64_t b = dense.first_bucket + static_cast<int64_t>(slot % buckets) * dense.width;
      out_keys_.emplace_back(tg, b);
      slot_of_group_.push_back(static_cast<uint32_t>(slot));
    }
    dense_states_ = std::move(dense.states);
    result_states_ = dense_states_.data();
  } else {
    std::vector<Partial> partials;
    for (int t = 0; t < nthreads; ++t) partials.emplace_back(naggs, ctx_);
    std::vector<std::vector<storage::SeriesId>> parts;
    for (size_t i = 0; i < series_.size(); i += kUnitSeries) {
      parts.emplace_back(series_.begin() + i, series_.begin() + std::min(series_.size(), i + kUnitSeries));
    }
    run(partials.data(), parts);
    for (const Status& s : statuses) GNOMON_RETURN_IF_ERROR(s);
    Partial& total = partials[0];
    for (int t = 1; t < nthreads; ++t) {
      for (size_t g = 0; g < partials[t].keys.size(); ++g) {
        auto [tg, b] = partials[t].keys[g];
        BucketState* dst = total.Get(tg, b);
        for (size_t a = 0; a < naggs; ++a) Merge(&dst[a], specs_[a], partials[t].states[g * naggs + a]);
      }
    }
    // Deterministic output: by tag group (first-seen order of ascending series), then bucket.
    std::vector<uint32_t> order(total.keys.size());
    for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
    std::sort(order.begin(), order.end(), [&](uint32_t x, uint32_t y) { return total.keys[x] < total.keys[y]; });
    out_keys_.reserve(order.size());
    for (uint32_t g : order) out_keys_.push_back(total.keys[g]);
    slot_of_group_ = std::move(order);
    states_ = std::move(total.states);
    result_states_ = states_.data();
  }
  for (const auto& m : metrics) {
    ctx_->stats.series_scanned += m.series_scanned;
    ctx_->stats.blocks_decoded += m.blocks_decoded;
    ctx_->stats.blocks_from_stats += m.blocks_from_stats;
    ctx_->stats.blocks_pruned += m.blocks_pruned;
    ctx_->stats.rows_scanned += m.rows_produced;
  }
  if (keys_.empty() && out_keys_.empty()) {
    // Without GROUP BY an aggregate over no rows still yields one row: count 0, NULL otherwise.
    out_keys_.emplace_back(0, 0);
    slot_of_group_.push_back(static_cast<uint32_t>(states_.size() / std::max<size_t>(1, naggs)));
    states_.resize(states_.size() + naggs);
    result_states_ = states_.data();
  }
  return Status::OK();
}

bool BucketAggregateOperator::PlanDense(size_t tag_groups, const BucketGroupKey* bucket_key, int64_t min_time,
                                        int64_t max_time, Dense* dense) const {
  // Worth it for many groups (the merge it saves grows with them); bounded so that a sparse
  // range of many buckets does not allocate states no row reaches.
  constexpr size_t kMinTagGroups = 64;
  constexpr size_t kMaxDenseStates = size_t{4} << 20;  // 160 MB of 40-byte states
  if (tag_groups < kMinTagGroups) return false;
  dense->naggs = specs_.size();
  if (bucket_key != nullptr) {
    const TimeBucketFn& fn = bucket_key->bucket;
    if (fn.width <= 0 || fn.calendar != TimeBucketFn::Calendar::kNone || fn.zone != nullptr) return false;
    // Rows exist only within the table's data: the bucket range need not be wider.
    int64_t data_min, data_max;
    reader_->TimeRange(&data_min, &data_max);
    const int64_t lo = std::max(min_time, data_min);
    const int64_t hi = std::min(max_time, data_max);
    if (lo > hi) return false;
    dense->first_bucket = fn.Apply(lo);
    const int64_t last = fn.Apply(hi);
    const __int128 span = (static_cast<__int128>(last) - dense->first_bucket) / fn.width + 1;
    if (span <= 0 || span > static_cast<__int128>(kMaxDenseStates)) return false;
    dense->width = fn.width;
    dense->buckets = static_cast<size_t>(span);
  }
  const __int128 states = static_cast<__int128>(tag_groups) * dense->buckets * std::max<size_t>(1, dense->naggs);
  if (states > static_cast<__int128>(kMaxDenseStates)) return false;
  // Zeroed memory is the initial state of every group, cleared a tag group at a time (Find).
  if (!dense->states.Allocate(tag_groups * dense->buckets * dense->naggs, /*zeroed=*/false) ||
      !dense->used.Allocate(tag_groups * dense->buckets) || !dense->cleared.Allocate(tag_groups)) {
    return false;
  }
  return true;
}

Status BucketAggregateOperator::EmitGroups(size_t begin, size_t end, Chunk* chunk) {
  const size_t naggs = specs_.size();
  size_t c = 0;
  size_t tag_i = 0;
  for (const BucketGroupKey& k : keys_) {
    const bool unread = OutputUnread(c);
    Vector& v = chunk->columns[c++];
    if (unread) {  // e.g. hostname in GROUP BY hour, hostname when only the hour is selected
      if (k.kind != BucketGroupKey::Kind::kBucket) ++tag_i;
      continue;
    }
    if (k.kind == BucketGroupKey::Kind::kBucket) {
      for (size_t g = begin; g < end; ++g) v.i64.push_back(out_keys_[g].second);
    } else {
      for (size_t g = begin; g < end; ++g) AppendValue(&v, groups_->Values(out_keys_[g].first)[tag_i]);
      ++tag_i;
    }
  }
  // Group by group: a group's states lie side by side, so the (large) table is read once, in
  // order. Column by column it was read once per aggregate, each time missing the cache.
  Vector* const agg_columns = chunk->columns.data() + c;
  for (size_t g = begin; g < end; ++g) {
    const BucketState* states = result_states_ + size_t{slot_of_group_[g]} * naggs;
    for (size_t a = 0; a < naggs; ++a) {
      Vector& v = agg_columns[a];
      const AggregateSpec& spec = specs_[a];
      const BucketState& st = states[a];
      switch (spec.kind) {
        case AggKind::kCountStar:
        case AggKind::kCount: v.i64.push_back(st.count); break;  // never NULL
        case AggKind::kAvg:
          if (st.count == 0) {
            AppendNull(&v);
          } else {
            MarkValidAt(&v, v.f64.size(), true);
            v.f64.push_back(AverageOf(st, spec));
          }
          break;
        default: {
          GNOMON_ASSIGN_OR_RETURN(Value x, ResultOf(st, spec));
          AppendValue(&v, std::move(x));
        }
      }
    }
  }
  return Status::OK();
}

}  // namespace gnomon::query
