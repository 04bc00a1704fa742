#include "src/server/auth/credentials.h"

#include <cstdint>

namespace gnomon::server::auth {
namespace {

int Base64Value(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}

bool IEqualsPrefix(std::string_view text, std::string_view prefix) {
  if (text.size() < prefix.size()) return false;
  for (size_t i = 0; i < prefix.size(); ++i) {
    char a = text[i] >= 'A' && text[i] <= 'Z' ? static_cast<char>(text[i] + 32) : text[i];
    if (a != prefix[i]) return false;
  }
  return true;
}

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

}  // namespace

std::optional<std::string> Base64Decode(std::string_view text) {
  while (!text.empty() && text.back() == '=') text.remove_suffix(1);
  if (text.size() % 4 == 1) return std::nullopt;
  std::string out;
  out.reserve(text.size() * 3 / 4);
  uint32_t acc = 0;
  int bits = 0;
  for (char c : text) {
    int v = Base64Value(c);
    if (v < 0) return std::nullopt;
    acc = (acc << 6) | static_cast<uint32_t>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(static_cast<char>((acc >> bits) & 0xFF));
    }
  }
  return out;
}

Result<std::optional<std::string>> ExtractToken(std::string_view authorization,
                                                std::optional<std::string_view> password_param) {
  authorization = Trim(authorization);
  if (authorization.empty()) {
    if (password_param && !password_param->empty()) return std::optional<std::string>(*password_param);
    return std::optional<std::string>();
  }
  for (std::string_view scheme : {"token ", "bearer "}) {
    if (IEqualsPrefix(authorization, scheme)) {
      std::string_view token = Trim(authorization.substr(scheme.size()));
      if (token.empty()) return Status::InvalidArgument("Authorization header without a token");
      return std::optional<std::string>(std::string(token));
    }
  }
  if (IEqualsPrefix(authorization, "basic ")) {
    auto decoded = Base64Decode(Trim(authorization.substr(6)));
    if (!decoded) return Status::InvalidArgument("Authorization: Basic credentials are not base64");
    size_t colon = decoded->find(':');
    if (colon == std::string::npos) {
      return Status::InvalidArgument("Authorization: Basic credentials lack 'user:password'");
    }
    return std::optional<std::string>(decoded->substr(colon + 1));
  }
  return Status::InvalidArgument("unsupported Authorization scheme (use Token, Bearer or Basic)");
}

}  // namespace gnomon::server::auth
