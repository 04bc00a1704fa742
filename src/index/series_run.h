// SeriesRun: how the registry stores one series, its keyset id and the id of each of its tag
// values, at the width each value id needs. Most tags of a fleet take a few values (a region, a
// rack) and one is unique (a hostname), so ten value ids fit in ~13 bytes, not 40: at ten
// million series that is a quarter of a gigabyte.
//
// Layout (little-endian, unaligned, in the registry's arena):
//   keyset id             4 bytes
//   width codes           ceil(n / 4) bytes, 2 bits per value (bytes - 1), value i in bits
//                         2 * (i % 4) of byte i / 4
//   value ids             n values of 1 to 4 bytes each
// n is the keyset's size; readers take it from the keyset.
//
// Thread-safety: a run never changes once written; reads need no lock.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>

#include "src/index/arena.h"

namespace gnomon::index {

static_assert(std::endian::native == std::endian::little, "series runs are read in place");

class SeriesRun {
 public:
  // Copies keyset and values into `arena`; returns the run.
  static const uint8_t* Write(uint32_t keyset, std::span<const uint32_t> values, Arena* arena) {
    const size_t n = values.size();
    size_t bytes = kHeader + CodeBytes(n);
    for (uint32_t v : values) bytes += WidthOf(v);
    auto* run = reinterpret_cast<uint8_t*>(arena->Allocate(bytes, 1));
    std::memcpy(run, &keyset, kHeader);
    uint8_t* codes = run + kHeader;
    std::memset(codes, 0, CodeBytes(n));
    uint8_t* out = codes + CodeBytes(n);
    for (size_t i = 0; i < n; ++i) {
      const size_t width = WidthOf(values[i]);
      codes[i / 4] |= static_cast<uint8_t>((width - 1) << (2 * (i % 4)));
      std::memcpy(out, &values[i], width);
      out += width;
    }
    return run;
  }

  static uint32_t Keyset(const uint8_t* run) {
    uint32_t keyset;
    std::memcpy(&keyset, run, kHeader);
    return keyset;
  }

  // Value id i of a run of n values. O(i / 4).
  static uint32_t Value(const uint8_t* run, size_t n, size_t i) {
    const uint8_t* codes = run + kHeader;
    size_t offset = kHeader + CodeBytes(n) + i;  // one byte a value, plus the codes before i
    for (size_t b = 0; b < i / 4; ++b) offset += CodeSum(codes[b]);
    const uint8_t partial = codes[i / 4] & static_cast<uint8_t>((1u << (2 * (i % 4))) - 1);
    offset += CodeSum(partial);
    const size_t width = ((codes[i / 4] >> (2 * (i % 4))) & 3) + 1;
    return Load(run + offset, width);
  }

  // Reads a run's values in order, each in O(1).
  class Reader {
   public:
    Reader(const uint8_t* run, size_t n) : codes_(run + kHeader), next_(run + kHeader + CodeBytes(n)) {}
    uint32_t Next() {
      const size_t width = ((codes_[i_ / 4] >> (2 * (i_ % 4))) & 3) + 1;
      const uint32_t value = Load(next_, width);
      next_ += width;
      ++i_;
      return value;
    }

   private:
    const uint8_t* codes_;
    const uint8_t* next_;
    size_t i_ = 0;
  };

 private:
  static constexpr size_t kHeader = sizeof(uint32_t);

  static size_t CodeBytes(size_t n) { return (n + 3) / 4; }
  // A value id of `width` bytes at p, by fixed-size loads: a variable-length memcpy into a zeroed
  // word compiles to byte stores that the next load of the word must wait for (a failed
  // store-to-load forward; half of the registry's tag-column reads).
  static uint32_t Load(const uint8_t* p, size_t width) {
    uint16_t low;
    switch (width) {
      case 1: return p[0];
      case 2: std::memcpy(&low, p, 2); return low;
      case 3: std::memcpy(&low, p, 2); return low | static_cast<uint32_t>(p[2]) << 16;
      default: {
        uint32_t v;
        std::memcpy(&v, p, 4);
        return v;
      }
    }
  }
  static size_t WidthOf(uint32_t v) { return v < (1u << 8) ? 1 : v < (1u << 16) ? 2 : v < (1u << 24) ? 3 : 4; }
  // The sum of the four 2-bit codes of a byte.
  static size_t CodeSum(uint8_t b) {
    return static_cast<size_t>(std::popcount(static_cast<unsigned>(b & 0x55)) +
                               2 * std::popcount(static_cast<unsigned>(b & 0xAA)));
  }
};

}  // namespace gnomon::index
