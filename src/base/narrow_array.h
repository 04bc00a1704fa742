// NarrowArray: a growable array of 64-bit values stored in chunks of 4,096, each chunk at the
// narrowest width (0, 1, 2, 4 or 8 bytes an entry) that holds every value written to it, so a
// per-series column of small numbers costs a byte a series, not eight.
//
// Two ways to narrow a value, chosen per chunk: "low", the value as a sign-extended integer of
// the width (small integers, and their two's-complement negatives); "high", its top bytes with
// the rest zero (doubles with short mantissas: 58.0 is 0x404D000000000000, two bytes). A chunk
// never written holds zeros and no memory. A write that needs more room re-encodes its chunk
// once at the new width (at most three times a chunk); widths never shrink.
//
// Not thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

namespace gnomon {

class NarrowArray {
 public:
  static constexpr size_t kChunk = 4096;

  size_t size() const { return size_; }
  // Grows to at least `n` entries (new ones are 0). Never shrinks.
  void GrowTo(size_t n);
  // REQUIRES: i < size().
  uint64_t Get(size_t i) const;
  void Set(size_t i, uint64_t value) {
    Chunk& c = chunks_[i / kChunk];
    // A value the chunk's width and mode hold needs no bookkeeping: a nonzero value that fits a
    // width under 8 in one mode needs all 8 bytes in the other, which the chunk's first nonzero
    // value already recorded, so the recorded needs stay exact for Widen's choice.
    if (Fits(c, value)) {
      Store(&c, i % kChunk, value);
    } else {
      SetWider(&c, i % kChunk, value);
    }
  }
  // Asks the CPU to fetch entry `i` for writing. REQUIRES: i < size().
  void Prefetch(size_t i) const {
    const Chunk& c = chunks_[i / kChunk];
    if (c.width != 0) __builtin_prefetch(c.data.get() + (i % kChunk) * c.width, 1);
  }
  // Heap bytes held.
  size_t MemoryUsage() const;

 private:
  enum class Mode : uint8_t { kLow, kHigh };
  struct Chunk {
    std::unique_ptr<uint8_t[]> data;  // kChunk entries of `width` bytes; null while width is 0
    uint8_t width = 0;
    Mode mode = Mode::kLow;
    // The narrowest width each mode needs for every value written so far.
    uint8_t low_width = 0;
    uint8_t high_width = 0;
  };

  static uint8_t LowWidth(uint64_t v);
  static uint8_t HighWidth(uint64_t v);
  static uint64_t Load(const Chunk& c, size_t i);
  static void Store(Chunk* c, size_t i, uint64_t v) {
    uint8_t* p = c->data.get() + i * c->width;
    if (c->mode == Mode::kHigh && c->width < 8) v >>= 64 - 8 * c->width;
    // Little-endian: the low bytes come first. Fixed-size copies: a copy of `width` bytes would
    // be a call to memmove.
    switch (c->width) {
      case 0: return;
      case 1: *p = static_cast<uint8_t>(v); return;
      case 2: { const auto x = static_cast<uint16_t>(v); std::memcpy(p, &x, 2); return; }
      case 4: { const auto x = static_cast<uint32_t>(v); std::memcpy(p, &x, 4); return; }
      default: std::memcpy(p, &v, 8); return;
    }
  }
  // Whether `v` is held exactly at the chunk's width and mode.
  static bool Fits(const Chunk& c, uint64_t v) {
    if (c.width == 8) return true;
    if (c.width == 0) return v == 0;
    const int bits = 8 * c.width;
    if (c.mode == Mode::kLow) {
      const int shift = 64 - bits;
      return static_cast<int64_t>(v << shift) >> shift == static_cast<int64_t>(v);
    }
    return (v << bits) == 0;
  }
  // Set for a value the chunk cannot hold yet: records its needs and re-encodes the chunk.
  static void SetWider(Chunk* c, size_t i, uint64_t value);
  // Re-encodes `c` at the width and mode its recorded needs call for.
  static void Widen(Chunk* c);

  std::vector<Chunk> chunks_;
  size_t size_ = 0;
};

}  // namespace gnomon
