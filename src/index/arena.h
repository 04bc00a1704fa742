// Arena: bump allocation of immutable runs (strings, id arrays) that live as long as the arena and
// never move, so views into it stay valid while more is added. Chunks start small and double up to
// kMaxChunkBytes, which keeps a registry with a handful of series small.
//
// Thread-safety: one writer (external synchronization); memory already handed out may be read
// concurrently under the same happens-before rule as StableVector.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

namespace gnomon::index {

class Arena {
 public:
  Arena() = default;
  Arena(const Arena&) = delete;
  Arena& operator=(const Arena&) = delete;

  // Returns `bytes` bytes aligned to `align` (a power of two, at most alignof(max_align_t)).
  char* Allocate(size_t bytes, size_t align);

  std::string_view CopyString(std::string_view s) {
    if (s.empty()) return {};
    char* p = Allocate(s.size(), 1);
    std::memcpy(p, s.data(), s.size());
    return {p, s.size()};
  }
  uint32_t* AllocateU32(size_t n) {
    return reinterpret_cast<uint32_t*>(Allocate(n * sizeof(uint32_t), alignof(uint32_t)));
  }

  size_t MemoryUsage() const { return allocated_ + chunks_.capacity() * sizeof(chunks_[0]); }

 private:
  static constexpr size_t kMinChunkBytes = 1024;
  static constexpr size_t kMaxChunkBytes = 256 * 1024;

  std::vector<std::unique_ptr<char[]>> chunks_;
  char* ptr_ = nullptr;
  size_t left_ = 0;
  size_t next_chunk_ = kMinChunkBytes;
  size_t allocated_ = 0;
};

}  // namespace gnomon::index
