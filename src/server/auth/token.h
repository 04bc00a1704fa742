// API tokens: what a token may do (its access and databases), how a secret is made and hashed.
// The server keeps only SHA-256 hashes of secrets (token_file.h); a secret is shown once, when
// it is created.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "src/base/result.h"
#include "src/base/status.h"

namespace gnomon::server::auth {

// Ordered: each level includes the ones below it.
enum class Access : uint8_t { kRead = 1, kWrite = 2, kAdmin = 3 };

std::string_view AccessName(Access access);  // "read", "write", "admin"
Result<Access> ParseAccess(std::string_view text);

using TokenHash = std::array<uint8_t, 32>;  // SHA-256

struct TokenRecord {
  std::string name;                    // unique; 1-64 bytes of [A-Za-z0-9_.-]
  Access access = Access::kRead;
  std::vector<std::string> databases;  // empty: every database
  int64_t created_ns = 0;              // wall clock, Unix nanoseconds
  TokenHash hash{};                    // SHA-256 of the secret

  bool all_databases() const { return databases.empty(); }
};

// Secrets are "gnomon_" + 64 hex digits: 256 bits from OpenSSL's RAND_bytes.
inline constexpr std::string_view kTokenPrefix = "gnomon_";
Result<std::string> GenerateTokenSecret();

TokenHash HashTokenSecret(std::string_view secret);
// Constant-time equality (CRYPTO_memcmp): how long it takes says nothing of where they differ.
bool TokenHashEquals(const TokenHash& a, const TokenHash& b);

std::string HashToHex(const TokenHash& hash);
Result<TokenHash> HashFromHex(std::string_view hex);

Status ValidateTokenName(std::string_view name);

// OK when `token` grants `needed` on `database`, else PermissionDenied saying why. An empty
// `database` means the server as a whole (/metrics, SHOW DATABASES): any database scope will do
// for read, while admin needs an admin token (admin tokens always cover every database).
Status CheckAccess(const TokenRecord& token, Access needed, std::string_view database);

}  // namespace gnomon::server::auth
