#include "src/bench/url.h"

#include <cctype>
#include <charconv>

namespace gnomon::bench {

Result<Url> ParseUrl(std::string_view text) {
  constexpr std::string_view kScheme = "http://";
  if (text.substr(0, kScheme.size()) != kScheme) {
    return Status::InvalidArgument("URL '" + std::string(text) + "': only http:// is supported");
  }
  std::string_view rest = text.substr(kScheme.size());
  size_t slash = rest.find('/');
  std::string_view authority = rest.substr(0, slash);
  Url url;
  if (slash != std::string_view::npos) {
    url.base_path = std::string(rest.substr(slash));
    while (!url.base_path.empty() && url.base_path.back() == '/') url.base_path.pop_back();
  }
  std::string_view host = authority;
  std::string_view port = "80";
  if (!authority.empty() && authority.front() == '[') {  // [v6]:port
    size_t close = authority.find(']');
    if (close == std::string_view::npos) {
      return Status::InvalidArgument("URL '" + std::string(text) + "': unclosed '['");
    }
    host = authority.substr(1, close - 1);
    std::string_view after = authority.substr(close + 1);
    if (!after.empty()) {
      if (after.front() != ':') return Status::InvalidArgument("URL '" + std::string(text) + "': bad port");
      port = after.substr(1);
    }
  } else if (size_t colon = authority.rfind(':'); colon != std::string_view::npos) {
    host = authority.substr(0, colon);
    port = authority.substr(colon + 1);
  }
  unsigned port_number = 0;
  auto [end, ec] = std::from_chars(port.data(), port.data() + port.size(), port_number);
  if (host.empty() || port.empty() || ec != std::errc() || end != port.data() + port.size() ||
      port_number == 0 || port_number > 65535) {
    return Status::InvalidArgument("URL '" + std::string(text) + "': expected http://HOST[:PORT]");
  }
  url.host = std::string(host);
  url.port = std::string(port);
  return url;
}

std::string FormUrlEncode(std::string_view text) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(text.size() + text.size() / 4);
  for (unsigned char c : text) {
    if (std::isalnum(c) || c == '-' || c == '.' || c == '_' || c == '~') {
      out.push_back(static_cast<char>(c));
    } else if (c == ' ') {
      out.push_back('+');
    } else {
      out.push_back('%');
      out.push_back(kHex[c >> 4]);
      out.push_back(kHex[c & 15]);
    }
  }
  return out;
}

Result<std::string> FormUrlDecode(std::string_view text) {
  auto hex = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '+') {
      out.push_back(' ');
    } else if (c == '%') {
      int hi = i + 2 < text.size() ? hex(text[i + 1]) : -1;
      int lo = i + 2 < text.size() ? hex(text[i + 2]) : -1;
      if (hi < 0 || lo < 0) {
        return Status::InvalidArgument("bad %-escape at offset " + std::to_string(i));
      }
      out.push_back(static_cast<char>(hi * 16 + lo));
      i += 2;
    } else {
      out.push_back(c);
    }
  }
  return out;
}

}  // namespace gnomon::bench
