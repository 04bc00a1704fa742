// The string block codec: constant, dictionary (when few distinct values) or plain.
//   kConstant:     [length: varint][bytes]        (empty payload when n == 0)
//   kPlainStrings: [lengths block size: varint][nested integer block of n lengths][the bytes, concatenated]
//   kDictionary:   see dictionary.h
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "src/base/status.h"

namespace gnomon::encoding {

void EncodeStringBlock(std::span<const std::string_view> v, std::string* out);
Status DecodeStringBlock(std::string_view block, std::vector<std::string_view>* out, std::string* arena);

}  // namespace gnomon::encoding
