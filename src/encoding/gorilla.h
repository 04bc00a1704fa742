// Gorilla XOR compression of doubles (Pelkonen et al., "Gorilla: A Fast, Scalable, In-Memory Time
// Series Database", VLDB 2015, section 4.1.2), over a bit stream (bit_stream.h):
//   first value: 64 bits;
//   then per value, x = bits(v[i]) XOR bits(v[i-1]):
//     '0'                                         x == 0
//     '1' '0' <meaningful bits of previous window> x fits the previous leading/trailing-zero window
//     '1' '1' <leading zeros: 5 bits> <length-1: 6 bits> <length meaningful bits>
// Padding to a byte boundary at the end. Works on bit patterns, so NaN payloads survive.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <string_view>

#include "src/base/status.h"

namespace gnomon::encoding {

// REQUIRES: v non-empty.
void EncodeGorilla(std::span<const double> v, std::string* out);
Status DecodeGorilla(std::string_view payload, size_t n, double* out);

}  // namespace gnomon::encoding
