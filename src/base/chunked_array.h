// ChunkedArray: a growable array in fixed chunks, for per-series columns of millions of entries.
// Growing never copies (a std::vector doubling to hold ten million entries holds up to twice that,
// and three times while it copies); the spare room is at most one chunk.
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

namespace gnomon {

template <typename T, size_t kChunk = 4096>
class ChunkedArray {
 public:
  size_t size() const { return size_; }
  // Grows to at least `n` entries; new ones are value-initialised (T need not be copyable).
  // Never shrinks.
  void GrowTo(size_t n) {
    while (chunks_.size() * kChunk < n) chunks_.push_back(std::make_unique<T[]>(kChunk));
    if (n > size_) size_ = n;
  }
  // The same, new entries `fill`.
  void GrowTo(size_t n, const T& fill) {
    while (chunks_.size() * kChunk < n) {
      chunks_.push_back(std::make_unique<T[]>(kChunk));
      for (size_t i = 0; i < kChunk; ++i) chunks_.back()[i] = fill;
    }
    if (n > size_) size_ = n;
  }
  T& operator[](size_t i) { return chunks_[i / kChunk][i % kChunk]; }
  const T& operator[](size_t i) const { return chunks_[i / kChunk][i % kChunk]; }
  // Heap bytes held (the entries' own heap memory not included).
  size_t MemoryUsage() const { return chunks_.size() * kChunk * sizeof(T) + chunks_.capacity() * sizeof(void*); }

 private:
  std::vector<std::unique_ptr<T[]>> chunks_;
  size_t size_ = 0;
};

}  // namespace gnomon
