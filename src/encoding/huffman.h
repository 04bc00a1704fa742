// Order-0 canonical Huffman coding of bytes: the general stage's entropy coder (compression id 3).
// zstd codes its literals with Huffman too, but each frame also pays for sequence headers and the
// coincidental short matches of a small-alphabet stream; a bare Huffman code over small zigzag deltas
// lands close to their entropy (TSBS cpu-only: 0.28 vs zstd's 0.31 bytes/value).
//
// Stored form (after general_compression.h's [raw length: varint]):
//   u8(k - 1)                          k distinct symbols, 1..256
//   ([u8 symbol][u8 code length 1..12])*k   symbols strictly ascending; lengths satisfy Kraft's inequality
//   v(size of stream 0) v(size of stream 1) v(size of stream 2)
//   streams 0..3: the input is cut into 4 consecutive segments of ceil(n / 4) bytes (the last ones
//   shorter or empty); each segment is a bit stream of its bytes' canonical codes, bit-reversed so they
//   read LSB-first, zero-padded to a byte. Stream 3 takes the remaining bytes.
// Canonical codes: symbols ordered by (length, symbol) take consecutive codes, as in DEFLATE. Four
// independent streams let the decoder overlap four table-lookup dependency chains.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "src/base/status.h"

namespace gnomon::encoding {

inline constexpr int kHuffmanMaxCodeLength = 12;

// Appends the stored form of `in` (REQUIRES: non-empty) to *out.
void HuffmanCompress(std::string_view in, std::string* out);

// A lower bound of the bytes HuffmanCompress appends for `in` (REQUIRES: non-empty): its code table
// and stream lengths exactly, and no code shorter than the bytes' entropy (Shannon's bound). A
// trial compression can skip building the code when even this would not pay.
size_t HuffmanCompressedSizeLowerBound(std::string_view in);

// Decodes exactly raw_len bytes into out[0..raw_len) from `stored`, which must be consumed exactly.
Status HuffmanDecompress(std::string_view stored, size_t raw_len, char* out);

// ---- Building blocks for codecs that lay out their own Huffman streams (chunked_delta.h) ----

// A length-limited canonical code: per byte value its code length (0 = unused) and its code,
// bit-reversed so that it is written LSB-first.
struct HuffmanCode {
  std::array<uint8_t, 256> lengths{};
  std::array<uint16_t, 256> codes{};
};

// REQUIRES: some count is nonzero.
HuffmanCode BuildHuffmanCode(const std::array<uint64_t, 256>& counts);
// Appends u8(k - 1) ([u8 symbol][u8 length])*k.
void AppendHuffmanTable(const HuffmanCode& code, std::string* out);
// Appends the codes of `bytes` as one bit stream, zero-padded to a byte. REQUIRES: every byte has a code.
void AppendHuffmanStream(const HuffmanCode& code, std::string_view bytes, std::string* out);

// Decoding table. A primary table indexed by the next `bits` bits of a stream (LSB-first) answers
// codes of at most `bits` bits: entry = symbol | code length << 8, 0 when the bits start a longer
// code or no code. Longer codes are decoded canonically (counts and symbols per length), so a small
// primary table (cheap to build for a short stream) still decodes every code.
struct HuffmanDecodeTable {
  int bits = 0;
  uint32_t mask = 0;
  int longest = 0;
  std::array<uint16_t, kHuffmanMaxCodeLength + 1> count{};  // codes per length
  std::array<uint8_t, 256> sorted{};                        // symbols by (length, symbol)
  std::array<uint16_t, size_t{1} << kHuffmanMaxCodeLength> entries;

  // Entry for the code at the bottom of `window` (which holds >= longest bits), 0 if none.
  uint16_t Lookup(uint64_t window) const {
    const uint16_t e = entries[window & mask];
    if (__builtin_expect(e != 0, 1)) return e;
    return LookupLong(window);
  }
  uint16_t LookupLong(uint64_t window) const;
};

// Parses a table written by AppendHuffmanTable from the front of *in (consumed) into *table, with a
// primary table of at most `primary_bits` bits (size it to the symbols that will be decoded).
// Corruption (naming the offset within `whole`) for unordered symbols, bad lengths or an
// oversubscribed code.
// A symbol with a code, and its code length (1..kHuffmanMaxCodeLength).
struct HuffmanSymbol {
  uint8_t symbol;
  uint8_t length;
};
Status ReadHuffmanTable(std::string_view whole, std::string_view* in, HuffmanDecodeTable* table,
                        int primary_bits = kHuffmanMaxCodeLength);
// Parses a table written by AppendHuffmanTable from the front of *in (consumed) into its symbols,
// ascending, checked as ReadHuffmanTable checks them (a decode table is then built from them with
// BuildHuffmanDecodeTable, which cannot fail for them); *k: how many.
Status ReadHuffmanSymbols(std::string_view whole, std::string_view* in, std::array<HuffmanSymbol, 256>* symbols,
                          size_t* k);
// Builds *table from the symbols that have codes, in ascending symbol order, as ReadHuffmanTable
// does from a stored table. Corruption when there are none, a length is out of range, or the
// lengths are oversubscribed.
Status BuildHuffmanDecodeTable(std::span<const HuffmanSymbol> symbols, HuffmanDecodeTable* table,
                               int primary_bits = kHuffmanMaxCodeLength);

}  // namespace gnomon::encoding
