// StableVector: an append-only array whose elements never move, so readers may hold references
// (and read published elements without a lock) while one writer appends.
//
// Storage is a fixed directory of blocks whose sizes double (2^kFirstBlockBits, then twice that,
// ...), so growth never copies and the directory itself never reallocates.
//
// Thread-safety: one writer (external synchronization). A reader may access element i without a
// lock if the writer's push_back of i happens-before the read (e.g. the index was published with a
// release store that the reader acquired, or handed over under a mutex).
#pragma once

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <type_traits>

#include "src/base/check.h"

namespace gnomon::index {

template <typename T, int kFirstBlockBits = 4>
class StableVector {
  static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>);

 public:
  StableVector() = default;
  StableVector(const StableVector&) = delete;
  StableVector& operator=(const StableVector&) = delete;

  // Writer-side count; readers use the bound they were given.
  size_t size() const { return size_; }

  // REQUIRES: i < a size published to the caller (not checked: size_ belongs to the writer).
  const T& operator[](size_t i) const {
    size_t block, offset;
    Locate(i, &block, &offset);
    return blocks_[block][offset];
  }

  void push_back(const T& v) {
    size_t block, offset;
    Locate(size_, &block, &offset);
    GNOMON_CHECK(block < kBlocks);
    if (offset == 0) blocks_[block].reset(new T[BlockSize(block)]);
    blocks_[block][offset] = v;
    ++size_;
  }

  // Bytes of heap held (allocated blocks).
  size_t MemoryUsage() const {
    size_t bytes = 0;
    for (size_t b = 0; b < kBlocks && blocks_[b]; ++b) bytes += BlockSize(b) * sizeof(T);
    return bytes;
  }

 private:
  static constexpr size_t kBlocks = 33 - kFirstBlockBits;  // >= 2^32 elements in all
  static size_t BlockSize(size_t block) { return size_t{1} << (block + kFirstBlockBits); }
  // Block b holds indexes [(2^b - 1) << k, (2^(b+1) - 1) << k).
  static void Locate(size_t i, size_t* block, size_t* offset) {
    size_t j = (i >> kFirstBlockBits) + 1;
    size_t b = static_cast<size_t>(std::bit_width(j)) - 1;
    *block = b;
    *offset = i - (((size_t{1} << b) - 1) << kFirstBlockBits);
  }

  std::array<std::unique_ptr<T[]>, kBlocks> blocks_;
  size_t size_ = 0;
};

}  // namespace gnomon::index
