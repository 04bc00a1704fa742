// CRC32C (Castagnoli), hardware-accelerated with SSE4.2 where available, for records and blocks.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace gnomon::crc32c {

// Extends `crc` (the CRC32C of some bytes A) to the CRC32C of A followed by data[0, n).
uint32_t Extend(uint32_t crc, const char* data, size_t n);
inline uint32_t Value(const char* data, size_t n) { return Extend(0, data, n); }
inline uint32_t Value(std::string_view s) { return Extend(0, s.data(), s.size()); }

// Stored CRCs are masked (as LevelDB does) so that a CRC over bytes that embed CRCs stays strong.
constexpr uint32_t kMaskDelta = 0xa282ead8u;
inline uint32_t Mask(uint32_t crc) { return ((crc >> 15) | (crc << 17)) + kMaskDelta; }
inline uint32_t Unmask(uint32_t masked) {
  uint32_t rot = masked - kMaskDelta;
  return (rot >> 17) | (rot << 15);
}

}  // namespace gnomon::crc32c
