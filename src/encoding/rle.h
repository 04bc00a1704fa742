// Run-length codecs.
//   kRle (integers): ([value: zz varint][run length: varint >= 1])* with run lengths summing to n.
//   kBoolRle:        [first value: u8 0|1]([run length: varint >= 1])*, runs alternate value, sum to n.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "src/base/status.h"

namespace gnomon::encoding {

// Number of maximal runs of equal values, and the exact kRle payload size.
size_t CountRuns(std::span<const int64_t> v);
size_t RleEncodedSize(std::span<const int64_t> v);

void EncodeRle(std::span<const int64_t> v, std::string* out);
Status DecodeRle(std::string_view payload, size_t n, int64_t* out);

// REQUIRES: v non-empty, each value 0 or 1.
void EncodeBoolRle(std::span<const uint8_t> v, std::string* out);
Status DecodeBoolRle(std::string_view payload, size_t n, uint8_t* out);

}  // namespace gnomon::encoding
