#include "src/server/http/query_params.h"

#include "src/base/hex.h"

namespace gnomon::server::http {

std::string UrlDecode(std::string_view text, bool plus_is_space) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '+' && plus_is_space) {
      out.push_back(' ');
    } else if (c == '%' && i + 2 < text.size() && HexValue(text[i + 1]) >= 0 &&
               HexValue(text[i + 2]) >= 0) {
      out.push_back(static_cast<char>(HexValue(text[i + 1]) * 16 + HexValue(text[i + 2])));
      i += 2;
    } else {
      out.push_back(c);
    }
  }
  return out;
}

QueryParams QueryParams::Parse(std::string_view text) {
  QueryParams params;
  while (!text.empty()) {
    size_t amp = text.find('&');
    std::string_view piece = text.substr(0, amp);
    text = amp == std::string_view::npos ? std::string_view() : text.substr(amp + 1);
    if (piece.empty()) continue;
    size_t eq = piece.find('=');
    if (eq == std::string_view::npos) {
      params.items_.emplace_back(UrlDecode(piece), std::string());
    } else {
      params.items_.emplace_back(UrlDecode(piece.substr(0, eq)), UrlDecode(piece.substr(eq + 1)));
    }
  }
  return params;
}

std::optional<std::string_view> QueryParams::Get(std::string_view key) const {
  for (const auto& [k, v] : items_) {
    if (k == key) return std::string_view(v);
  }
  return std::nullopt;
}

std::string_view QueryParams::GetOr(std::string_view key, std::string_view fallback) const {
  auto value = Get(key);
  return value ? *value : fallback;
}

}  // namespace gnomon::server::http
