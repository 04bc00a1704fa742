// Dictionary coding of strings: the distinct values once, then a nested integer block of codes
// (int_codec.h picks FOR, RLE, ... for the code stream).
//
// Payload: [distinct count: varint]([length: varint][bytes])*[nested integer block of n codes]
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "src/base/status.h"

namespace gnomon::encoding {

// Assigns codes in first-seen order. Returns false (leaving outputs unspecified) as soon as more than
// max_distinct distinct values are seen, so the caller can fall back cheaply.
bool BuildDictionary(std::span<const std::string_view> v, size_t max_distinct,
                     std::vector<std::string_view>* distinct, std::vector<int64_t>* codes);

void EncodeDictionary(std::span<const std::string_view> distinct, std::span<const int64_t> codes,
                      std::string* out);

// Fills *arena with the distinct values and *out with n views into it.
Status DecodeDictionary(std::string_view payload, size_t n, std::vector<std::string_view>* out,
                        std::string* arena);

}  // namespace gnomon::encoding
