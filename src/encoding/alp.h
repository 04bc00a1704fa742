// ALP-style decimal compression of doubles (Afroozeh & Boncz, "ALP: Adaptive Lossless floating-Point
// Compression", SIGMOD 2024). A double that is a decimal with few digits is stored as the integer
// d = round(v * 10^e * 10^-f); decoding computes d * 10^f * 10^-e, which must reproduce v bit for bit,
// otherwise v is kept aside as an exception (NaN, ±Inf, -0.0, values with too many digits).
//
// Payload: [e: u8][f: u8][exception count: varint]
//          [exception positions: varint, first absolute then gaps - 1]
//          [exception values: 8-byte little-endian bit patterns]
//          [nested integer block (int_codec.h) with the n integers; exceptions hold a neighbour's integer]
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "src/base/status.h"

namespace gnomon::encoding {

inline constexpr int kAlpMaxExponent = 18;

struct AlpParams {
  int e = 0;
  int f = 0;
  size_t sample_exceptions = 0;  // exceptions seen in the sample
  size_t sample_size = 0;
};

// Picks (e, f) from a sample of up to 32 values, minimising packed width plus exception cost.
AlpParams ChooseAlpParams(std::span<const double> v);

// REQUIRES: v non-empty.
void EncodeAlp(std::span<const double> v, const AlpParams& params, std::string* out);
Status DecodeAlp(std::string_view payload, size_t n, double* out);

}  // namespace gnomon::encoding
