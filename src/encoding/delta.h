// Integer codecs over differences of consecutive values. All arithmetic is mod 2^64, so deltas of any
// int64 (or uint64) stream — INT64_MIN next to INT64_MAX included — round-trip exactly.
//
// Payloads (n, the value count, comes from the block header):
//   kConstantDelta:  [first: zz varint][step: zz varint]                      (n >= 2)
//   kDeltaFor:       [first: zz varint][FOR stream of the n-1 deltas]          (n >= 1)
//   kDeltaDeltaFor:  [first: zz varint][first delta: zz varint][FOR of n-2 delta-of-deltas] (n >= 2)
//   kDeltaVarint:    [first: zz varint][n-1 deltas: zz varint each]            (n >= 1)
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "src/base/status.h"

namespace gnomon::encoding {

// out[i] = v[i+1] - v[i] (mod 2^64). REQUIRES: out holds v.size() - 1 values; v non-empty.
void ComputeDeltas(std::span<const int64_t> v, int64_t* out);

void EncodeConstantDelta(int64_t first, int64_t step, std::string* out);
Status DecodeConstantDelta(std::string_view payload, size_t n, int64_t* out);

// `deltas` = ComputeDeltas(v); `dods` = ComputeDeltas(deltas). Passed in because the chooser has them.
void EncodeDeltaFor(std::span<const int64_t> v, std::span<const int64_t> deltas, std::string* out);
Status DecodeDeltaFor(std::string_view payload, size_t n, int64_t* out);

void EncodeDeltaDeltaFor(std::span<const int64_t> v, std::span<const int64_t> deltas,
                         std::span<const int64_t> dods, std::string* out);
Status DecodeDeltaDeltaFor(std::string_view payload, size_t n, int64_t* out);

void EncodeDeltaVarint(std::span<const int64_t> v, std::span<const int64_t> deltas, std::string* out);
Status DecodeDeltaVarint(std::string_view payload, size_t n, int64_t* out);

}  // namespace gnomon::encoding
