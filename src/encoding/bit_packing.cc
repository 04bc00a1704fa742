#include "src/encoding/bit_packing.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <utility>

#include "src/base/check.h"

namespace gnomon::encoding {
namespace {

inline uint64_t Load64(const uint8_t* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  return v;
}

// Reads the value at bit position `bit` when fewer than 16 bytes may follow it: byte by byte.
inline uint64_t ReadTail(const uint8_t* in, size_t nbytes, size_t bit, int width) {
  size_t byte = bit >> 3;
  int shift = static_cast<int>(bit & 7);
  unsigned __int128 acc = 0;
  const int need = (shift + width + 7) / 8;
  for (int k = 0; k < need && byte + k < nbytes; ++k) {
    acc |= static_cast<unsigned __int128>(in[byte + k]) << (8 * k);
  }
  const uint64_t v = static_cast<uint64_t>(acc >> shift);
  return width == 64 ? v : v & ((uint64_t{1} << width) - 1);
}

// Eight values of W bits occupy exactly W bytes, so within a run of eight every shift and offset is a
// compile-time constant once the loop is unrolled. The fast loop leaves >= 16 bytes of slack so the
// 8- or 9-byte loads never leave the packed range; the last few values go through ReadTail.
template <int W>
void UnpackWidth(const uint8_t* in, size_t n, uint64_t* out) {
  if constexpr (W == 0) {
    std::fill(out, out + n, 0);
  } else {
    constexpr uint64_t kMask = W == 64 ? ~uint64_t{0} : (uint64_t{1} << W) - 1;
    const size_t nbytes = PackedBytes(n, W);
    size_t i = 0;
    for (; i + 8 <= n && (i / 8) * W + W + 16 <= nbytes; i += 8) {
      const uint8_t* p = in + (i / 8) * W;
#pragma GCC unroll 8
      for (int j = 0; j < 8; ++j) {
        const int bit = j * W;
        const uint64_t lo = Load64(p + bit / 8);
        uint64_t v = lo >> (bit & 7);
        if constexpr (W > 56) {
          if ((bit & 7) != 0) v |= static_cast<uint64_t>(p[bit / 8 + 8]) << (64 - (bit & 7));
        }
        out[i + j] = v & kMask;
      }
    }
    for (; i < n; ++i) out[i] = ReadTail(in, nbytes, i * W, W);
  }
}

using UnpackFn = void (*)(const uint8_t*, size_t, uint64_t*);

template <size_t... Ws>
constexpr std::array<UnpackFn, sizeof...(Ws)> MakeUnpackTable(std::index_sequence<Ws...>) {
  return {&UnpackWidth<static_cast<int>(Ws)>...};
}
constexpr auto kUnpack = MakeUnpackTable(std::make_index_sequence<65>());

}  // namespace

void PackBits(const uint64_t* values, size_t n, int width, std::string* out) {
  GNOMON_CHECK(width >= 0 && width <= 64);
  const size_t start = out->size();
  out->resize(start + PackedBytes(n, width));
  if (width == 0) return;
  auto* p = reinterpret_cast<uint8_t*>(out->data() + start);
  const uint64_t mask = width == 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1;
  // A 128-bit accumulator holds up to 63 pending bits plus one 64-bit value.
  unsigned __int128 acc = 0;
  int bits = 0;
  for (size_t i = 0; i < n; ++i) {
    acc |= static_cast<unsigned __int128>(values[i] & mask) << bits;
    bits += width;
    if (bits >= 64) {
      const uint64_t word = static_cast<uint64_t>(acc);
      std::memcpy(p, &word, 8);
      p += 8;
      acc >>= 64;
      bits -= 64;
    }
  }
  while (bits > 0) {
    *p++ = static_cast<uint8_t>(acc);
    acc >>= 8;
    bits -= 8;
  }
}

void UnpackBits(const uint8_t* in, size_t n, int width, uint64_t* out) {
  GNOMON_CHECK(width >= 0 && width <= 64);
  kUnpack[width](in, n, out);
}

}  // namespace gnomon::encoding
