// Bit-granular writer and bounds-checked reader (LSB-first within little-endian bytes), for codecs
// whose fields are not byte-aligned (Gorilla).
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace gnomon::encoding {

class BitWriter {
 public:
  explicit BitWriter(std::string* out) : out_(out) {}

  // Appends the low `nbits` bits of v. REQUIRES: 0 <= nbits <= 64.
  void Write(uint64_t v, int nbits) {
    if (nbits == 0) return;
    if (nbits < 64) v &= (uint64_t{1} << nbits) - 1;
    acc_ |= static_cast<unsigned __int128>(v) << bits_;
    bits_ += nbits;
    if (bits_ >= 64) {
      char word[8];
      const uint64_t lo = static_cast<uint64_t>(acc_);
      std::memcpy(word, &lo, 8);
      out_->append(word, 8);
      acc_ >>= 64;
      bits_ -= 64;
    }
  }

  // Writes the pending bits, zero-padding the last byte. Call once, after the last Write.
  void Flush() {
    while (bits_ > 0) {
      out_->push_back(static_cast<char>(static_cast<uint8_t>(acc_)));
      acc_ >>= 8;
      bits_ -= 8;
    }
    bits_ = 0;
  }

 private:
  std::string* out_;
  unsigned __int128 acc_ = 0;
  int bits_ = 0;
};

class BitReader {
 public:
  explicit BitReader(std::string_view in)
      : data_(reinterpret_cast<const uint8_t*>(in.data())), size_(in.size()) {}

  // Reads `nbits` (0..64) bits into *v; false, reading nothing, when fewer remain.
  bool Read(int nbits, uint64_t* v) {
    if (nbits == 0) {
      *v = 0;
      return true;
    }
    if (pos_ + static_cast<uint64_t>(nbits) > static_cast<uint64_t>(size_) * 8) return false;
    const size_t byte = pos_ >> 3;
    const int shift = static_cast<int>(pos_ & 7);
    uint64_t lo;
    uint64_t hi = 0;
    if (byte + 9 <= size_) {
      std::memcpy(&lo, data_ + byte, 8);
      hi = data_[byte + 8];
    } else {
      unsigned char buf[9] = {};
      std::memcpy(buf, data_ + byte, size_ - byte);
      std::memcpy(&lo, buf, 8);
      hi = buf[8];
    }
    uint64_t r = lo >> shift;
    if (shift != 0) r |= hi << (64 - shift);
    *v = nbits == 64 ? r : r & ((uint64_t{1} << nbits) - 1);
    pos_ += nbits;
    return true;
  }

  bool ReadBit(bool* bit) {
    uint64_t v;
    if (!Read(1, &v)) return false;
    *bit = v != 0;
    return true;
  }

  // Whole bytes touched so far (the last one possibly partly padding).
  size_t BytesConsumed() const { return static_cast<size_t>((pos_ + 7) / 8); }

 private:
  const uint8_t* data_;
  size_t size_;
  uint64_t pos_ = 0;
};

}  // namespace gnomon::encoding
