// Fixed-width bit-packing: n unsigned values of `width` bits each, stored LSB-first in
// ceil(n * width / 8) bytes. The building block of frame-of-reference coding (Lemire et al.).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace gnomon::encoding {

constexpr size_t PackedBytes(size_t n, int width) { return (n * static_cast<size_t>(width) + 7) / 8; }

// Bits needed to hold v (0 for v == 0).
inline int BitWidth(uint64_t v) { return v == 0 ? 0 : 64 - __builtin_clzll(v); }

// Appends PackedBytes(n, width) bytes holding values[0..n). REQUIRES: 0 <= width <= 64 and every
// value < 2^width (higher bits are masked off).
void PackBits(const uint64_t* values, size_t n, int width, std::string* out);

// Reads n values of `width` bits from in[0..PackedBytes(n, width)); never reads past that range.
// REQUIRES: 0 <= width <= 64.
void UnpackBits(const uint8_t* in, size_t n, int width, uint64_t* out);

}  // namespace gnomon::encoding
