// HashIndex: an open-addressing table from a 64-bit hash to a uint32 id, for interning (series
// keys, tag keys, tag values). It stores no keys: each 8-byte slot holds the hash's high 32 bits
// (the fingerprint) and the id, and a caller-supplied predicate confirms a fingerprint match
// against the caller's own copy of the key. The home bucket is the fingerprint's top bits, so the
// table can grow without rehashing any key.
//
// Thread-safety: none (callers hold their lock). Find is const and may run concurrently with
// other Finds.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "src/base/check.h"

namespace gnomon::index {

class HashIndex {
 public:
  static constexpr uint32_t kNoId = UINT32_MAX;

  explicit HashIndex(int initial_bits = 3) : bits_(initial_bits), slots_(size_t{1} << initial_bits, kEmptySlot) {}

  // The id whose fingerprint matches `hash` and for which eq(id) is true.
  template <typename Eq>
  std::optional<uint32_t> Find(uint64_t hash, Eq&& eq) const {
    const uint32_t fp = static_cast<uint32_t>(hash >> 32);
    const size_t mask = slots_.size() - 1;
    for (size_t i = Home(fp);; i = (i + 1) & mask) {
      uint64_t s = slots_[i];
      uint32_t id = static_cast<uint32_t>(s);
      if (id == kNoId) return std::nullopt;
      if (static_cast<uint32_t>(s >> 32) == fp && eq(id)) return id;
    }
  }

  // REQUIRES: no entry equal to this one is present (callers Find first); id != kNoId.
  void Insert(uint64_t hash, uint32_t id) {
    GNOMON_DCHECK(id != kNoId);
    if ((count_ + 1) * 5 > slots_.size() * 4) Grow();  // max load 0.8
    Place(static_cast<uint32_t>(hash >> 32), id);
    ++count_;
  }

  size_t size() const { return count_; }
  size_t MemoryUsage() const { return slots_.capacity() * sizeof(uint64_t); }

 private:
  static constexpr uint64_t kEmptySlot = kNoId;  // fingerprint 0, id kNoId

  size_t Home(uint32_t fp) const { return bits_ == 0 ? 0 : fp >> (32 - bits_); }

  void Place(uint32_t fp, uint32_t id) {
    const size_t mask = slots_.size() - 1;
    size_t i = Home(fp);
    while (static_cast<uint32_t>(slots_[i]) != kNoId) i = (i + 1) & mask;
    slots_[i] = (static_cast<uint64_t>(fp) << 32) | id;
  }

  void Grow() {
    GNOMON_CHECK_MSG(bits_ < 32, "HashIndex full");
    std::vector<uint64_t> old(size_t{1} << (bits_ + 1), kEmptySlot);
    old.swap(slots_);
    ++bits_;
    for (uint64_t s : old) {
      if (static_cast<uint32_t>(s) != kNoId) Place(static_cast<uint32_t>(s >> 32), static_cast<uint32_t>(s));
    }
  }

  int bits_;
  std::vector<uint64_t> slots_;
  size_t count_ = 0;
};

}  // namespace gnomon::index
