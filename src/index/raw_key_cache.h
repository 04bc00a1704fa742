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
#include <cstdint>
#include <memory>
#include <optional>
#include <shared_mutex>
#include <string_view>
#include <vector>

#include "src/index/series_key.h"

namespace gnomon::index {

struct RawKeyHash {
  uint64_t low;
  uint32_t high;  // 32 more bits of the 128-bit hash
  friend bool operator==(const RawKeyHash&, const RawKeyHash&) = default;
};

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

  size_t size() const;
  size_t MemoryUsage() const;

 private:
  struct Slot {
    uint64_t low = 0;
    uint32_t high = 0;
    SeriesId id = kEmpty;  // kEmpty: a free slot
  };
  static constexpr SeriesId kEmpty = UINT32_MAX;
  static constexpr int kShardBits = 4;
  struct Shard {
    mutable std::shared_mutex mu;
    std::vector<Slot> slots;  // open addressing, linear probing; size a power of two
    size_t count = 0;
  };
  static size_t ShardOf(const RawKeyHash& h) { return h.high >> (32 - kShardBits); }
  // Puts `slot` in its place; false (nothing changed) when its hash is there already.
  static bool Place(std::vector<Slot>* slots, const Slot& slot);

  std::array<Shard, size_t{1} << kShardBits> shards_;
};

}  // namespace gnomon::index
