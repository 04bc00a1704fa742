// Hashing for in-memory keys (series keys, symbols): XXH3, fast and well distributed.
#pragma once

#include <cstdint>
#include <string_view>

#define XXH_INLINE_ALL
#include <xxhash.h>

namespace gnomon {

inline uint64_t Hash64(std::string_view s) { return XXH3_64bits(s.data(), s.size()); }
inline uint64_t Hash64(const void* data, size_t n) { return XXH3_64bits(data, n); }

// Transparent hasher so unordered containers keyed by std::string accept string_view look-ups.
struct StringHash {
  using is_transparent = void;
  size_t operator()(std::string_view s) const { return Hash64(s); }
};

}  // namespace gnomon
