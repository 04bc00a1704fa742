// RawKeyCache: series ids by a fingerprint of the series key as clients spell it (line protocol's
// measurement and tag section, tags in the client's order, escapes and all), so that a series
// written again skips parsing, sorting and canonical look-up of its tags.
//
// It keeps 16 bytes a series and no key bytes (at 10 M series the keys alone would be ~2 GB): a
// slot holds 96 bits of an XXH3-128 hash, seeded per process, and the id. Two keys of one table
// that share those 96 bits would be taken for one series; among 10 M keys the chance is ~1e-15.
// The seed is secret, so clients cannot aim for a collision, and one who could gains nothing:
// within a table it can write to, it can write any series anyway.
//
// Thread-safety: all methods may be called concurrently (sharded, a shared lock per look-up).
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <shared_mutex>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include "src/index/raw_key_hash.h"
#include "src/port/huge_pages.h"
#include "src/index/series_key.h"

namespace gnomon::index {

class RawKeyCache {
 public:
  RawKeyCache();
  ~RawKeyCache();
  RawKeyCache(const RawKeyCache&) = delete;
  RawKeyCache& operator=(const RawKeyCache&) = delete;

  // The fingerprint of `raw_key` (with this process's seed).
  static RawKeyHash Hash(std::string_view raw_key);

  std::optional<SeriesId> Find(const RawKeyHash& hash) const;
  // Records `id` for `hash` (a second insert of the same hash keeps the first id).
  void Insert(const RawKeyHash& hash, SeriesId id);
  // Insert for many at once: each shard's lock is taken once, not once an entry (a batch of new
  // series would otherwise take a lock per series that other writers' look-ups wait on).
  void InsertMany(std::span<const std::pair<RawKeyHash, SeriesId>> entries);

  // Starts loading the slot a Find of `hash` probes first, for a Find soon after: in a table of
  // millions of series each look-up otherwise waits on a cache miss. Takes no lock; a shard
  // replaced meanwhile costs a wasted prefetch, nothing more.
  void Prefetch(const RawKeyHash& hash) const {
    const Shard& shard = shards_[ShardOf(hash)];
    const Slot* base = shard.prefetch_base.load(std::memory_order_relaxed);
    if (base != nullptr) __builtin_prefetch(base + (hash.low & shard.prefetch_mask.load(std::memory_order_relaxed)));
  }
  // Whether the slots outgrow the CPU's caches, so that Prefetch pays for its hash.
  bool Large() const { return slot_bytes_.load(std::memory_order_relaxed) >= kLargeBytes; }

  size_t size() const;
  size_t MemoryUsage() const;

 private:
  struct Slot {
    uint64_t low = 0;
    uint32_t high = 0;
    SeriesId id = kEmpty;  // kEmpty: a free slot
  };
  static constexpr SeriesId kEmpty = UINT32_MAX;
  // At 10 M series the slots take 256 MB: huge pages spare each probe a page walk.
  using SlotVector = std::vector<Slot, port::HugePageAllocator<Slot>>;
  static constexpr int kShardBits = 4;
  struct Shard {
    mutable std::shared_mutex mu;
    SlotVector slots;  // open addressing, linear probing; size a power of two
    size_t count = 0;
    // Copies of slots.data() and its mask for Prefetch, which reads them without the lock.
    std::atomic<const Slot*> prefetch_base{nullptr};
    std::atomic<size_t> prefetch_mask{0};
  };
  static constexpr size_t kLargeBytes = size_t{16} << 20;
  static size_t ShardOf(const RawKeyHash& h) { return h.high >> (32 - kShardBits); }
  // Puts `slot` in its place; false (nothing changed) when its hash is there already.
  static bool Place(SlotVector* slots, const Slot& slot);
  // Inserts `slot` into `shard`, growing it first at its maximum load. REQUIRES: shard.mu held.
  void InsertLocked(Shard* shard, const Slot& slot);

  std::array<Shard, size_t{1} << kShardBits> shards_;
  std::atomic<size_t> slot_bytes_{0};  // of all shards' slots
};

}  // namespace gnomon::index
