#include "src/index/raw_key_cache.h"

#include <algorithm>
#include <mutex>
#include <random>

#define XXH_INLINE_ALL
#include <xxhash.h>

namespace gnomon::index {
namespace {

uint64_t ProcessSeed() {
  static const uint64_t seed = [] {
    std::random_device rd;
    return (static_cast<uint64_t>(rd()) << 32) ^ rd();
  }();
  return seed;
}

constexpr size_t kInitialSlots = 64;

}  // namespace

RawKeyCache::RawKeyCache() = default;
RawKeyCache::~RawKeyCache() = default;

RawKeyHash RawKeyCache::Hash(std::string_view raw_key) {
  XXH128_hash_t h = XXH3_128bits_withSeed(raw_key.data(), raw_key.size(), ProcessSeed());
  return RawKeyHash{h.low64, static_cast<uint32_t>(h.high64)};
}

std::optional<SeriesId> RawKeyCache::Find(const RawKeyHash& hash) const {
  const Shard& shard = shards_[ShardOf(hash)];
  std::shared_lock lock(shard.mu);
  if (shard.slots.empty()) return std::nullopt;
  const size_t mask = shard.slots.size() - 1;
  for (size_t i = hash.low & mask;; i = (i + 1) & mask) {
    const Slot& s = shard.slots[i];
    if (s.id == kEmpty) return std::nullopt;
    if (s.low == hash.low && s.high == hash.high) return s.id;
  }
}

bool RawKeyCache::Place(SlotVector* slots, const Slot& slot) {
  const size_t mask = slots->size() - 1;
  size_t i = slot.low & mask;
  while ((*slots)[i].id != kEmpty) {
    if ((*slots)[i].low == slot.low && (*slots)[i].high == slot.high) return false;
    i = (i + 1) & mask;
  }
  (*slots)[i] = slot;
  return true;
}

void RawKeyCache::InsertLocked(Shard* shard, const Slot& slot) {
  if ((shard->count + 1) * 4 > shard->slots.size() * 3) {  // max load 0.75
    SlotVector grown(std::max(kInitialSlots, 2 * shard->slots.size()));
    for (const Slot& s : shard->slots) {
      if (s.id != kEmpty) Place(&grown, s);
    }
    slot_bytes_.fetch_add((grown.size() - shard->slots.size()) * sizeof(Slot), std::memory_order_relaxed);
    shard->slots.swap(grown);
    shard->prefetch_base.store(shard->slots.data(), std::memory_order_relaxed);
    shard->prefetch_mask.store(shard->slots.size() - 1, std::memory_order_relaxed);
  }
  if (Place(&shard->slots, slot)) ++shard->count;
}

void RawKeyCache::Insert(const RawKeyHash& hash, SeriesId id) {
  Shard& shard = shards_[ShardOf(hash)];
  std::unique_lock lock(shard.mu);
  InsertLocked(&shard, Slot{hash.low, hash.high, id});
}

void RawKeyCache::InsertMany(std::span<const std::pair<RawKeyHash, SeriesId>> entries) {
  // Entries by shard: a counting sort of their positions.
  constexpr size_t kShards = size_t{1} << kShardBits;
  std::array<uint32_t, kShards + 1> start{};
  for (const auto& e : entries) ++start[ShardOf(e.first) + 1];
  for (size_t i = 0; i < kShards; ++i) start[i + 1] += start[i];
  std::vector<uint32_t> order(entries.size());
  std::array<uint32_t, kShards> next;
  std::copy_n(start.begin(), kShards, next.begin());
  for (size_t i = 0; i < entries.size(); ++i) order[next[ShardOf(entries[i].first)]++] = static_cast<uint32_t>(i);
  for (size_t sh = 0; sh < kShards; ++sh) {
    if (start[sh] == start[sh + 1]) continue;
    std::unique_lock lock(shards_[sh].mu);
    for (uint32_t k = start[sh]; k < start[sh + 1]; ++k) {
      const auto& [hash, id] = entries[order[k]];
      InsertLocked(&shards_[sh], Slot{hash.low, hash.high, id});
    }
  }
}

size_t RawKeyCache::size() const {
  size_t n = 0;
  for (const Shard& s : shards_) {
    std::shared_lock lock(s.mu);
    n += s.count;
  }
  return n;
}

size_t RawKeyCache::MemoryUsage() const {
  size_t bytes = sizeof(*this);
  for (const Shard& s : shards_) {
    std::shared_lock lock(s.mu);
    bytes += s.slots.capacity() * sizeof(Slot);
  }
  return bytes;
}

}  // namespace gnomon::index
