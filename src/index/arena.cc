#include "src/index/arena.h"

#include <algorithm>

namespace gnomon::index {

char* Arena::Allocate(size_t bytes, size_t align) {
  size_t pad = (align - (reinterpret_cast<uintptr_t>(ptr_) & (align - 1))) & (align - 1);
  if (ptr_ == nullptr || pad + bytes > left_) {
    // Large requests get a chunk of their own so they do not waste the rest of a normal chunk.
    size_t size = bytes > next_chunk_ / 4 ? bytes : next_chunk_;
    chunks_.emplace_back(new char[size]);  // new char[] is aligned for max_align_t
    allocated_ += size;
    if (size != bytes) {
      ptr_ = chunks_.back().get();
      left_ = size;
      next_chunk_ = std::min(next_chunk_ * 2, kMaxChunkBytes);
    } else {
      return chunks_.back().get();
    }
    pad = 0;
  }
  char* out = ptr_ + pad;
  ptr_ += pad + bytes;
  left_ -= pad + bytes;
  return out;
}

}  // namespace gnomon::index
