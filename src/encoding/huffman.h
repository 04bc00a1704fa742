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

#include <cstddef>
#include <string>
#include <string_view>

#include "src/base/status.h"

namespace gnomon::encoding {

inline constexpr int kHuffmanMaxCodeLength = 12;

// Appends the stored form of `in` (REQUIRES: non-empty) to *out.
void HuffmanCompress(std::string_view in, std::string* out);

// Decodes exactly raw_len bytes into out[0..raw_len) from `stored`, which must be consumed exactly.
Status HuffmanDecompress(std::string_view stored, size_t raw_len, char* out);

}  // namespace gnomon::encoding
