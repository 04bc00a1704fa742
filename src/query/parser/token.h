// Tokens of Gnomon's SQL dialect, as produced by the lexer (lexer.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "src/base/ascii.h"

namespace gnomon::query {

enum class TokenType : uint8_t {
  kEnd,               // end of input; offset = input size
  kIdentifier,        // bare word: keyword or identifier (the parser decides); text is as written
  kQuotedIdentifier,  // "x" or `x`; text is the unescaped content, case preserved
  kString,            // 'x'; text is the unescaped content ('' -> ')
  kInteger,           // 123; text is the digits
  kFloat,             // 1.5, .5, 1e3; text as written
  kDuration,          // InfluxQL-style 10m, 1h30m, 5ms; text as written (see interval.h)
  kLParen,
  kRParen,
  kComma,
  kDot,
  kSemicolon,
  kStar,
  kPlus,
  kMinus,
  kSlash,
  kPercent,
  kCaret,
  kEq,           // =
  kNotEq,        // <> or !=
  kLt,
  kLtEq,
  kGt,
  kGtEq,
  kDoubleColon,  // ::
  kConcat,       // ||
};

struct Token {
  TokenType type = TokenType::kEnd;
  size_t offset = 0;  // byte offset of the token's first character in the statement text
  size_t length = 0;  // bytes of source text the token covers (quotes included)
  std::string text;   // see TokenType

  size_t end() const { return offset + length; }
};

// Case-insensitive ASCII comparison, for keywords. Inline and locale-free: the parser asks it
// of the token at hand for every keyword it might see there.
inline bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (AsciiLower(a[i]) != AsciiLower(b[i])) return false;
  }
  return true;
}

// True for an unquoted word that is `keyword` (which must be upper case), case-insensitively.
inline bool IsKeyword(const Token& t, std::string_view keyword) {
  return t.type == TokenType::kIdentifier && EqualsIgnoreCase(t.text, keyword);
}

// Reserved words cannot be used as bare identifiers (column, table or implicit alias names);
// quoting ("from") makes any word an identifier. The list is kept short on purpose: words like
// time, day, hour, name, start are ordinary identifiers because TSBS and real schemas use them.
bool IsReservedKeyword(std::string_view word);

}  // namespace gnomon::query
