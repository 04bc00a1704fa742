// ASCII case folding for identifiers and keywords (SQL, InfluxQL, HTTP header names): locale-free,
// so a server's locale never changes what a query means.
#pragma once

#include <string>
#include <string_view>

namespace gnomon {

inline bool AsciiIsDigit(char c) { return static_cast<unsigned char>(c - '0') < 10; }

inline char AsciiLower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

inline char AsciiUpper(char c) { return c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c; }

inline bool AsciiIsAlpha(char c) { return static_cast<unsigned char>((c | 0x20) - 'a') < 26; }

inline bool AsciiEqualsIgnoreCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (AsciiLower(a[i]) != AsciiLower(b[i])) return false;
  }
  return true;
}

inline std::string AsciiLower(std::string s) {
  for (char& c : s) c = AsciiLower(c);
  return s;
}

}  // namespace gnomon
