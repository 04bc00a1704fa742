// The one-byte codec tag that starts every encoded block (docs/format/encoding.md).
//
//   bit  7 6 | 5 4 3 2 1 0
//        gp  | codec id
//
// The low six bits name the codec that produced the payload; the top two bits name the general-purpose
// compression applied over that payload afterwards (none, zstd, lz4, huffman). Codec ids are shared by all value
// types: a block's type is known to its reader, so kConstant means "one repeated int64" to DecodeInt64s and
// "one repeated double" to DecodeFloat64s. Values are persisted; never renumber them.
#pragma once

#include <cstdint>
#include <string_view>

namespace gnomon::encoding {

enum class Codec : uint8_t {
  kConstant = 1,        // every value equal (also: count 0, empty payload)
  kConstantDelta = 2,   // arithmetic progression: first value and step
  kRle = 3,             // (value, run length) pairs
  kFor = 4,             // frame-of-reference bit-packing of the values, 128 per group
  kDeltaFor = 5,        // first value, then FOR-packed deltas
  kDeltaDeltaFor = 6,   // first value, first delta, then FOR-packed delta-of-deltas
  kVarint = 7,          // zigzag LEB128 per value
  kDeltaVarint = 8,     // first value, then zigzag LEB128 deltas (byte-aligned: feeds the entropy stage)
  kGorilla = 9,         // XOR of consecutive doubles (Gorilla)
  kAlp = 10,            // decimal doubles as integers x 10^-e (ALP), integers in a nested block
  kRawFloat = 11,       // 8 bytes per double, little-endian bit pattern
  kBitPacked = 12,      // bools, 8 per byte, LSB first
  kBoolRle = 13,        // bools as alternating run lengths
  kDictionary = 14,     // strings: distinct values, then a nested block of codes
  kPlainStrings = 15,   // strings: nested block of lengths, then the bytes
  kChunkedDelta = 16,   // small deltas Huffman-coded in independently decodable chunks (seekable)
};
inline constexpr uint8_t kMaxCodecId = 16;

enum class Compression : uint8_t { kNone = 0, kZstd = 1, kLz4 = 2, kHuffman = 3 };

inline constexpr uint8_t kCodecIdMask = 0x3f;
inline constexpr int kCompressionShift = 6;

constexpr uint8_t MakeTag(Codec codec, Compression compression) {
  return static_cast<uint8_t>(static_cast<uint8_t>(codec) |
                              (static_cast<uint8_t>(compression) << kCompressionShift));
}
constexpr uint8_t TagCodecId(uint8_t tag) { return tag & kCodecIdMask; }
constexpr uint8_t TagCompressionId(uint8_t tag) { return tag >> kCompressionShift; }
// True when the tag names a known codec (every compression id 0..3 is defined).
constexpr bool IsValidTag(uint8_t tag) { return TagCodecId(tag) >= 1 && TagCodecId(tag) <= kMaxCodecId; }

// "delta_for", "delta_varint+zstd", ...; "invalid" for an unknown tag. The view is static.
std::string_view CodecName(uint8_t codec);

}  // namespace gnomon::encoding
