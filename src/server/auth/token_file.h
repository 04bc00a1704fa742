// The token file (docs/format/token_file.md): every token's name, access, databases, creation
// time and SHA-256 hash — never a secret — one line each, closed by a CRC32C of the lines before.
// Replaced atomically (write, fsync, rename, fsync dir), so a reader sees the old file or the new.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "src/base/result.h"
#include "src/port/env.h"
#include "src/server/auth/token.h"

namespace gnomon::server::auth {

inline constexpr char kTokenFileName[] = "TOKENS";

std::string EncodeTokenFile(const std::vector<TokenRecord>& tokens);
// Corruption naming `source` and the line when the bytes fail their checks.
Result<std::vector<TokenRecord>> DecodeTokenFile(std::string_view bytes, std::string_view source);

// The tokens of `data_dir`; none (an empty list) when it has no token file.
Result<std::vector<TokenRecord>> LoadTokenFile(port::Env* env, const std::string& data_dir);
Status SaveTokenFile(port::Env* env, const std::string& data_dir,
                     const std::vector<TokenRecord>& tokens);

}  // namespace gnomon::server::auth
