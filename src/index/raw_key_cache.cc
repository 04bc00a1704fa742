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

bool RawKeyCache::Place(std::vector<Slot>* slots, const Slot& slot) {
  const size_t mask = slots->size() - 1;
  size_t i = slot.low & mask;
  while ((*slots)[i].id != kEmpty) {
    if ((*slots)[i].low == slot.low && (*slots)[i].high == slot.high) return false;
    i = (i + 1) & mask;
  }
  (*slots)[i] = slot;
  return true;
}

void RawKeyCache::Insert(const RawKeyHash& hash, SeriesId id) {
  Shard& shard = shards_[ShardOf(hash)];
  std::unique_lock lock(shard.mu);
  if ((shard.count + 1) * 4 > shard.slots.size() * 3) {  // max load 0.75
    std::vector<Slot> grown(std::max(kInitialSlots, 2 * shard.slots.size()));
    for (const Slot& s : shard.slots) {
      if (s.id != kEmpty) Place(&grown, s);
    }
    shard.slots.swap(grown);
  }
  if (Place(&shard.slots, Slot{hash.low, hash.high, id})) ++shard.count;
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
