// Base URLs ("http://127.0.0.1:4000") and application/x-www-form-urlencoded text, for the
// benchmark's HTTP client.
#pragma once

#include <string>
#include <string_view>

#include "src/base/result.h"

namespace gnomon::bench {

struct Url {
  std::string host;       // "127.0.0.1", "localhost", "[::1]" without brackets
  std::string port;       // "4000"; "80" when the URL has none
  std::string base_path;  // "" or "/prefix" (no trailing slash); request targets are appended
};

// Accepts http://HOST[:PORT][/PATH]. https and other schemes are InvalidArgument.
Result<Url> ParseUrl(std::string_view text);

// Form encoding: unreserved bytes (A-Z a-z 0-9 - . _ ~) as-is, space as '+', the rest as %XX.
std::string FormUrlEncode(std::string_view text);

// Inverse of FormUrlEncode ('+' is a space); malformed escapes are InvalidArgument.
Result<std::string> FormUrlDecode(std::string_view text);

}  // namespace gnomon::bench
