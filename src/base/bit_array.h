// BitArray: a growable array of bits in fixed chunks (ChunkedArray of words), for per-series flags
// of millions of entries: an eighth of a byte a flag, and growth never copies.
// Not thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>

#include "src/base/chunked_array.h"

namespace gnomon {

class BitArray {
 public:
  size_t size() const { return size_; }
  // Grows to at least `n` bits (new ones clear). Never shrinks.
  void GrowTo(size_t n) {
    words_.GrowTo((n + 63) / 64, 0);
    if (n > size_) size_ = n;
  }
  // False past size().
  bool Test(size_t i) const { return i < size_ && (words_[i / 64] >> (i % 64) & 1); }
  // REQUIRES: i < size().
  void Set(size_t i, bool v) {
    const uint64_t bit = uint64_t{1} << (i % 64);
    if (v) words_[i / 64] |= bit; else words_[i / 64] &= ~bit;
  }
  // Asks the CPU to fetch bit `i`'s word for writing. REQUIRES: i < size().
  void Prefetch(size_t i) const { __builtin_prefetch(&words_[i / 64], 1); }
  size_t MemoryUsage() const { return words_.MemoryUsage(); }

 private:
  ChunkedArray<uint64_t, 512> words_;  // 32,768 bits a chunk
  size_t size_ = 0;
};

}  // namespace gnomon
