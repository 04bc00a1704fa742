// Where a request carries its token, in the forms InfluxDB's clients send it:
//   Authorization: Token <t>     InfluxDB 2.x clients
//   Authorization: Bearer <t>    InfluxDB 3 clients, OAuth-style tools
//   Authorization: Basic base64(user:<t>)   InfluxDB 1.x clients, TSBS (the password is the token)
//   ?u=<user>&p=<t>              InfluxDB 1.x query parameters (p is the token)
// The header wins when both are present.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "src/base/result.h"

namespace gnomon::server::auth {

// The token, or nullopt when the request carries none; InvalidArgument for a malformed
// Authorization header (unknown scheme, bad base64, Basic without ':').
Result<std::optional<std::string>> ExtractToken(std::string_view authorization,
                                                std::optional<std::string_view> password_param);

// Standard base64 (RFC 4648, '=' padding optional); nullopt when `text` is not base64.
std::optional<std::string> Base64Decode(std::string_view text);

}  // namespace gnomon::server::auth
