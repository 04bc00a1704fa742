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
  // A copy of `s` behind its length (a varint), read back by LengthPrefixedAt: 8 bytes a
  // string to point at instead of a 16-byte view.
  const char* CopyLengthPrefixed(std::string_view s) {
    size_t prefix = 1;
    for (size_t n = s.size(); n >= 0x80; n >>= 7) ++prefix;
    char* p = Allocate(prefix + s.size(), 1);
    char* q = p;
    size_t n = s.size();
    for (; n >= 0x80; n >>= 7) *q++ = static_cast<char>((n & 0x7F) | 0x80);
    *q++ = static_cast<char>(n);
    if (!s.empty()) std::memcpy(q, s.data(), s.size());
    return p;
  }
  static std::string_view LengthPrefixedAt(const char* p) {
    size_t n = 0;
    for (int shift = 0;; shift += 7) {
      const auto b = static_cast<uint8_t>(*p++);
      n |= static_cast<size_t>(b & 0x7F) << shift;
      if (b < 0x80) break;
    }
    return {p, n};
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
