// Decoded hour-slice statistics, kept in memory per segment within a byte budget that every
// segment of the engine shares.
//
// An aggregate over hourly buckets reads the statistics of every series-hour it covers: a
// double-groupby-all over 4,000 hosts reads ~500,000 of them per query. Decoding their varints
// on every query cost a fifth of its CPU; a cached entry is read back with a few moves. Entries
// are filled on first use and live as long as their segment (a compaction or retention drop
// frees them with it); once the budget is spent, further slices are decoded on each read as
// before, so a budget too small for the working set costs speed, never memory.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "src/base/value_type.h"
#include "src/storage/scan.h"

namespace gnomon::storage {

// Bytes that caches may hold in total. Thread-safe.
class CacheBudget {
 public:
  explicit CacheBudget(size_t limit_bytes) : limit_(limit_bytes) {}
  // Takes `bytes` from the budget; false (taking nothing) if that would pass the limit.
  bool TryCharge(size_t bytes);
  void Release(size_t bytes) { used_.fetch_sub(bytes, std::memory_order_relaxed); }
  size_t used() const { return used_.load(std::memory_order_relaxed); }
  size_t limit() const { return limit_; }

 private:
  const size_t limit_;
  std::atomic<size_t> used_{0};
};

// One segment's cache: an entry per column chunk (row group × column) that has slice statistics.
class SliceStatsCache {
 public:
  // `chunks`: the segment's number of column chunks (SegmentIndex::chunks.size()).
  SliceStatsCache(std::shared_ptr<CacheBudget> budget, size_t chunks);
  ~SliceStatsCache();
  SliceStatsCache(const SliceStatsCache&) = delete;
  SliceStatsCache& operator=(const SliceStatsCache&) = delete;

  // Sets out->size() to `slices` and fills (*out)[first, needed) with chunk `chunk`'s cached
  // statistics of a column of `type` (the other entries are left as they were: a scan reads
  // only its range's slices, and clearing the rest cost more than reading these); false when
  // the chunk is not cached.
  bool Read(size_t chunk, ValueType type, size_t slices, size_t first, size_t needed,
            std::vector<ColumnStats>* out) const;
  // Caches `stats` (every slice of the chunk, as DecodeColumnStats produced them for `type`) if
  // the budget allows. Concurrent inserts of the same chunk keep the first.
  void Insert(size_t chunk, ValueType type, const std::vector<ColumnStats>& stats);
  // Asks the CPU to fetch chunk `chunk`'s cached slices [first, needed), if it is cached.
  void Prefetch(size_t chunk, size_t first, size_t needed) const;

 private:
  struct Entry;  // a count followed by that many packed statistics
  std::shared_ptr<CacheBudget> budget_;
  size_t chunks_ = 0;  // 0 when even the directory did not fit the budget
  std::unique_ptr<std::atomic<Entry*>[]> entries_;
};

}  // namespace gnomon::storage
