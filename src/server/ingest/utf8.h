// UTF-8 validation for names and string values that enter the database (results are served as
// JSON and over the PostgreSQL wire, both of which require valid UTF-8).
#pragma once

#include <string_view>

namespace gnomon::server::internal {

// True when `s` is well-formed UTF-8 (no overlong forms, no surrogates, nothing above U+10FFFF).
bool IsValidUtf8(std::string_view s);

// The longest prefix of `s` of at most `max_bytes` bytes that does not end inside a multi-byte
// sequence (for truncating text shown in error messages).
std::string_view TruncateUtf8(std::string_view s, size_t max_bytes);

}  // namespace gnomon::server::internal
