#include "src/server/auth/token.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/rand.h>

#include <algorithm>

#include "src/base/hex.h"

namespace gnomon::server::auth {
namespace {

constexpr char kHex[] = "0123456789abcdef";

}  // namespace

std::string_view AccessName(Access access) {
  switch (access) {
    case Access::kRead: return "read";
    case Access::kWrite: return "write";
    case Access::kAdmin: return "admin";
  }
  return "read";
}

Result<Access> ParseAccess(std::string_view text) {
  if (text == "read") return Access::kRead;
  if (text == "write") return Access::kWrite;
  if (text == "admin") return Access::kAdmin;
  return Status::InvalidArgument("invalid access '" + std::string(text) +
                                 "': expected read, write or admin");
}

Result<std::string> GenerateTokenSecret() {
  std::array<unsigned char, 32> bytes;
  if (RAND_bytes(bytes.data(), static_cast<int>(bytes.size())) != 1) {
    return Status::Internal("RAND_bytes failed: no randomness for a token");
  }
  std::string out(kTokenPrefix);
  for (unsigned char b : bytes) {
    out.push_back(kHex[b >> 4]);
    out.push_back(kHex[b & 15]);
  }
  OPENSSL_cleanse(bytes.data(), bytes.size());
  return out;
}

TokenHash HashTokenSecret(std::string_view secret) {
  TokenHash hash{};
  unsigned int length = 0;
  // EVP_Digest fails only when out of memory; a zero hash then matches no stored token.
  if (EVP_Digest(secret.data(), secret.size(), hash.data(), &length, EVP_sha256(), nullptr) != 1) {
    hash.fill(0);
  }
  return hash;
}

bool TokenHashEquals(const TokenHash& a, const TokenHash& b) {
  return CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

std::string HashToHex(const TokenHash& hash) {
  std::string out;
  out.reserve(hash.size() * 2);
  for (uint8_t b : hash) {
    out.push_back(kHex[b >> 4]);
    out.push_back(kHex[b & 15]);
  }
  return out;
}

Result<TokenHash> HashFromHex(std::string_view hex) {
  TokenHash hash{};
  if (hex.size() != hash.size() * 2) {
    return Status::InvalidArgument("token hash must be 64 hex digits");
  }
  for (size_t i = 0; i < hash.size(); ++i) {
    int hi = HexValue(hex[2 * i]);
    int lo = HexValue(hex[2 * i + 1]);
    if (hi < 0 || lo < 0) return Status::InvalidArgument("token hash is not hex");
    hash[i] = static_cast<uint8_t>(hi << 4 | lo);
  }
  return hash;
}

Status ValidateTokenName(std::string_view name) {
  if (name.empty() || name.size() > 64) {
    return Status::InvalidArgument("token name must be 1-64 bytes");
  }
  for (char c : name) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '_' || c == '-' || c == '.';
    if (!ok) {
      return Status::InvalidArgument("invalid token name '" + std::string(name) +
                                     "': only letters, digits, '_', '-' and '.' are allowed");
    }
  }
  return Status::OK();
}

Status CheckAccess(const TokenRecord& token, Access needed, std::string_view database) {
  if (token.access < needed) {
    return Status::PermissionDenied("token '" + token.name + "' has " +
                                    std::string(AccessName(token.access)) + " access; this needs " +
                                    std::string(AccessName(needed)));
  }
  if (token.access == Access::kAdmin || database.empty() || token.all_databases()) {
    return Status::OK();
  }
  if (std::find(token.databases.begin(), token.databases.end(), database) != token.databases.end()) {
    return Status::OK();
  }
  return Status::PermissionDenied("token '" + token.name + "' is not allowed on database '" +
                                  std::string(database) + "'");
}

}  // namespace gnomon::server::auth
