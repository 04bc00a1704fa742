// HashIndex: an open-addressing table from a 64-bit hash to a uint32 id, for interning (series
// keys, tag keys, tag values). It stores no keys: each 8-byte slot holds the hash's high 32 bits
// (the fingerprint) and the id, and a caller-supplied predicate confirms a fingerprint match
// against the caller's own copy of the key. The home bucket is the fingerprint's top bits, so the
// table can grow without rehashing any key.
//
// Past kSplitAt entries it splits into 256 shards by the fingerprint's top byte, each growing on
// its own: one table of ten million entries doubled in one step copies 128 MB under the writer's
// lock (writes stalled for most of a second at 10 M series) and holds old and new at once.
//
// Thread-safety: none (callers hold their lock). Find is const and may run concurrently with
// other Finds.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "src/base/check.h"

namespace gnomon::index {

class HashIndex {
 public:
  static constexpr uint32_t kNoId = UINT32_MAX;
  static constexpr size_t kSplitAt = size_t{1} << 16;

  explicit HashIndex(int initial_bits = 3) { shards_.emplace_back(initial_bits); }

  // The id whose fingerprint matches `hash` and for which eq(id) is true.
  template <typename Eq>
  std::optional<uint32_t> Find(uint64_t hash, Eq&& eq) const {
    const uint32_t fp = static_cast<uint32_t>(hash >> 32);
    const Shard& shard = shards_[ShardOf(fp)];
    const size_t mask = shard.slots.size() - 1;
    for (size_t i = shard.Home(fp, shard_bits_);; i = (i + 1) & mask) {
      uint64_t s = shard.slots[i];
      uint32_t id = static_cast<uint32_t>(s);
      if (id == kNoId) return std::nullopt;
      if (static_cast<uint32_t>(s >> 32) == fp && eq(id)) return id;
    }
  }

  // REQUIRES: no entry equal to this one is present (callers Find first); id != kNoId.
  void Insert(uint64_t hash, uint32_t id) {
    GNOMON_DCHECK(id != kNoId);
    if (shard_bits_ == 0 && count_ >= kSplitAt) Split();
    AddToShard(static_cast<uint32_t>(hash >> 32), id);
    ++count_;
  }

  // Inserts (hash, id) unless an entry matching `hash` for which eq(its id) holds is present;
  // returns that entry's id, or kNoId once inserted: Find and Insert in one probe sequence, for
  // loads that must reject duplicates (a registry snapshot). id != kNoId.
  template <typename Eq>
  uint32_t InsertUnlessPresent(uint64_t hash, uint32_t id, Eq&& eq) {
    GNOMON_DCHECK(id != kNoId);
    if (shard_bits_ == 0 && count_ >= kSplitAt) Split();
    const uint32_t fp = static_cast<uint32_t>(hash >> 32);
    Shard& shard = shards_[ShardOf(fp)];
    if ((shard.count + 1) * 5 > shard.slots.size() * 4) shard.Grow(shard_bits_);
    const size_t mask = shard.slots.size() - 1;
    for (size_t i = shard.Home(fp, shard_bits_);; i = (i + 1) & mask) {
      const uint64_t s = shard.slots[i];
      const uint32_t other = static_cast<uint32_t>(s);
      if (other == kNoId) {
        shard.slots[i] = (static_cast<uint64_t>(fp) << 32) | id;
        ++shard.count;
        ++count_;
        return kNoId;
      }
      if (static_cast<uint32_t>(s >> 32) == fp && eq(other)) return other;
    }
  }

  // Sizes the table for `entries` in all, so that adding them grows nothing on the way (a load
  // of ten million series otherwise doubles each shard a dozen times).
  void Reserve(size_t entries) {
    if (shard_bits_ == 0 && entries > kSplitAt) Split();
    // Shards fill unevenly by a fraction of a percent at these sizes; 5% spare covers it.
    const size_t per_shard = shards_.size() == 1 ? entries : entries / shards_.size() * 21 / 20 + 64;
    for (Shard& shard : shards_) {
      while ((per_shard + 1) * 5 > shard.slots.size() * 4) shard.Grow(shard_bits_);
    }
  }

  size_t size() const { return count_; }
  size_t MemoryUsage() const {
    size_t bytes = shards_.capacity() * sizeof(Shard);
    for (const Shard& shard : shards_) bytes += shard.slots.capacity() * sizeof(uint64_t);
    return bytes;
  }

 private:
  static constexpr uint64_t kEmptySlot = kNoId;  // fingerprint 0, id kNoId
  static constexpr int kShardBits = 8;

  struct Shard {
    explicit Shard(int initial_bits) : bits(initial_bits), slots(size_t{1} << initial_bits, kEmptySlot) {}

    // The fingerprint's bits below the shard's, top first.
    size_t Home(uint32_t fp, int shard_bits) const {
      return bits == 0 ? 0 : static_cast<uint32_t>(fp << shard_bits) >> (32 - bits);
    }
    void Place(uint32_t fp, uint32_t id, int shard_bits) {
      const size_t mask = slots.size() - 1;
      size_t i = Home(fp, shard_bits);
      while (static_cast<uint32_t>(slots[i]) != kNoId) i = (i + 1) & mask;
      slots[i] = (static_cast<uint64_t>(fp) << 32) | id;
    }
    void Grow(int shard_bits) {
      GNOMON_CHECK_MSG(bits < 32 - shard_bits, "HashIndex full");
      std::vector<uint64_t> old(size_t{1} << (bits + 1), kEmptySlot);
      old.swap(slots);
      ++bits;
      for (uint64_t s : old) {
        if (static_cast<uint32_t>(s) != kNoId) Place(static_cast<uint32_t>(s >> 32), static_cast<uint32_t>(s), shard_bits);
      }
    }

    int bits;
    std::vector<uint64_t> slots;
    size_t count = 0;
  };

  size_t ShardOf(uint32_t fp) const { return shard_bits_ == 0 ? 0 : fp >> (32 - shard_bits_); }

  void AddToShard(uint32_t fp, uint32_t id) {
    Shard& shard = shards_[ShardOf(fp)];
    if ((shard.count + 1) * 5 > shard.slots.size() * 4) shard.Grow(shard_bits_);  // max load 0.8
    shard.Place(fp, id, shard_bits_);
    ++shard.count;
  }

  // One table into 256, each sized for its share at the same load.
  void Split() {
    Shard whole = std::move(shards_[0]);
    shards_.clear();
    const int bits = std::max(3, whole.bits - kShardBits);
    shards_.reserve(size_t{1} << kShardBits);
    for (size_t i = 0; i < (size_t{1} << kShardBits); ++i) shards_.emplace_back(bits);
    shard_bits_ = kShardBits;
    for (uint64_t s : whole.slots) {
      if (static_cast<uint32_t>(s) != kNoId) AddToShard(static_cast<uint32_t>(s >> 32), static_cast<uint32_t>(s));
    }
  }

  std::vector<Shard> shards_;
  int shard_bits_ = 0;
  size_t count_ = 0;
};

}  // namespace gnomon::index
