// BucketAggregateOperator: the fast path for the time-series aggregate shape
//   SELECT bucket(time), tags..., agg(field)... FROM t WHERE <time range> AND <tag predicates>
//   GROUP BY bucket(time), tags...
// It reads storage directly: per series it knows the tag group once, runs over rows in time order
// grouping consecutive rows of one bucket, and takes a stored block's statistics instead of its
// rows when the block lies inside one bucket. Series are split across threads, partial states
// merged. Output columns are those HashAggregateOperator would produce for the same query.
#pragma once

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <type_traits>
#include <utility>
#include <string>
#include <vector>

#include "src/query/execution/aggregate_function.h"
#include "src/query/execution/grouped_aggregate_operator.h"
#include "src/query/execution/operator.h"
#include "src/query/function/scalar_functions.h"
#include "src/storage/scan.h"

namespace gnomon::query {

struct BucketGroupKey {
  enum class Kind : uint8_t { kBucket, kTag } kind;
  TimeBucketFn bucket;  // kBucket
  std::string tag;      // kTag
  std::string name;     // output column name
};

// An array of implicit-lifetime T whose all-zero bytes are their initial state: zeroed by calloc
// (which skips clearing memory the kernel hands out zeroed), or left for the caller to clear
// piece by piece where it is used.
template <typename T>
class ZeroedArray {
 public:
  static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>);
  ZeroedArray() = default;
  ZeroedArray(ZeroedArray&& o) noexcept : data_(std::exchange(o.data_, nullptr)), size_(std::exchange(o.size_, 0)) {}
  ZeroedArray& operator=(ZeroedArray&& o) noexcept {
    std::swap(data_, o.data_);
    std::swap(size_, o.size_);
    return *this;
  }
  ~ZeroedArray() { std::free(data_); }
  // Replaces the contents with n elements, zeroed unless `zeroed` is false; false when memory is
  // short.
  bool Allocate(size_t n, bool zeroed = true) {
    std::free(data_);
    size_ = 0;
    const size_t count = std::max<size_t>(n, 1);
    data_ = static_cast<T*>(zeroed ? std::calloc(count, sizeof(T)) : std::malloc(count * sizeof(T)));
    if (data_ != nullptr) size_ = n;
    return data_ != nullptr;
  }
  T* data() { return data_; }
  const T* data() const { return data_; }
  size_t size() const { return size_; }
  T& operator[](size_t i) { return data_[i]; }

 private:
  T* data_ = nullptr;
  size_t size_ = 0;
};

struct BucketAggregate {
  AggregateSpec spec;  // kind in count*/count/sum/min/max/avg
  std::string field;   // field column (empty for count(*))
};

// Running state of one aggregate of one group: the count/sum/min/max subset of AggState that this
// operator's aggregates need, in 40 bytes instead of AggState's ~200 (a query over 4,000 hosts x 13
// hours keeps half a million of them). Results equal AggState's for the same rows and statistics.
struct BucketState {
  int64_t count = 0;
  double sum = 0;
  int64_t isum = 0;
  bool int_overflow = false;
  bool has = false;
  union Best {
    int64_t i;  // int64 and bool (0/1) columns
    double f;
    uint64_t u;
  } best{0};
};

class BucketAggregateOperator final : public GroupedAggregateOperator {
 public:
  BucketAggregateOperator(std::shared_ptr<storage::TableReader> reader, std::string table,
                          std::vector<storage::SeriesId> series, int64_t min_time,
                          int64_t max_time, std::vector<BucketGroupKey> keys,
                          std::vector<BucketAggregate> aggregates, ExecutionContext* ctx,
                          int threads);
  std::string Describe() const override;
  // Only the newest `n` buckets are wanted (GROUP BY bucket ORDER BY bucket DESC LIMIT n, no tag
  // keys): aggregate a window of the newest buckets, widening it back until it holds n of them.
  void SetNewestBuckets(size_t n) { newest_buckets_ = n; }

  // Whether an aggregate kind can run here (needs only running count/sum/min/max).
  static bool Supports(AggKind kind) { return AnsweredByStats(kind); }

 protected:
  Status Compute() override;
  size_t NumGroups() const override { return out_keys_.size(); }
  Status EmitGroups(size_t begin, size_t end, Chunk* chunk) override;

 private:
  struct Partial;
  struct Dense;
  template <typename Groups>
  class Consumer;
  Status Aggregate(int64_t min_time, int64_t max_time);
  // Sizes *dense for the groups of [min_time, max_time] if a dense table suits them.
  bool PlanDense(size_t tag_groups, const BucketGroupKey* bucket_key, int64_t min_time, int64_t max_time,
                 Dense* dense) const;

  std::shared_ptr<storage::TableReader> reader_;
  std::string table_;
  std::vector<storage::SeriesId> series_;
  int64_t min_time_, max_time_;
  std::vector<BucketGroupKey> keys_;
  std::vector<BucketAggregate> aggs_;
  ExecutionContext* ctx_;
  int threads_;
  size_t newest_buckets_ = 0;
  // Output group g: (tag group, bucket) out_keys_[g], aggregates at
  // states_[slot_of_group_[g] * specs_.size() + a].
  std::unique_ptr<TagGroups> groups_;
  std::vector<std::pair<uint32_t, int64_t>> out_keys_;
  std::vector<BucketState> states_;         // the hashed path's groups
  ZeroedArray<BucketState> dense_states_;   // the dense path's
  const BucketState* result_states_ = nullptr;
  std::vector<uint32_t> slot_of_group_;
};

}  // namespace gnomon::query
