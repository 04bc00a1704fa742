// InfluxQL tokens. Identifiers are bare (letters, digits, _) or "double quoted"; strings are
// 'single quoted'; durations are integers with a unit (10m, 1h30m, 500ms). A '/' starts a
// regular expression only where the grammar allows one, so the parser asks for it (ScanRegex).
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "src/base/result.h"

namespace gnomon::query::influxql {

// Nanoseconds of a duration literal's text: 10m, 1h30m, 500ms, 5u.
Result<int64_t> ParseDurationLiteral(std::string_view raw);

struct Token {
  enum class Kind : uint8_t {
    kEof, kIdent, kQuotedIdent, kString, kInteger, kNumber, kDuration, kRegex,
    kOperator,  // + - * / % & | ^ = != <> < <= > >= =~ !~
    kLParen, kRParen, kComma, kSemicolon, kDot, kDoubleColon, kIllegal,
  };
  Kind kind = Kind::kEof;
  std::string text;      // identifier, string value, operator, regex pattern; the bad text for kIllegal
  int64_t int_value = 0;  // kInteger; kDuration in nanoseconds
  double number = 0;      // kNumber
  size_t pos = 0;         // byte offset in the query

  // Whether this is the bare keyword `kw` (case-insensitive; quoted identifiers never are).
  bool Is(std::string_view kw) const;
  std::string Describe() const;  // for "found X" in errors
};

// Bound parameters: `$name` in the text reads as the token bound to `name` (see influxql_params.h).
using BoundParams = std::map<std::string, Token, std::less<>>;

class Lexer {
 public:
  // `params` (may be null: no parameters) must outlive the lexer.
  explicit Lexer(std::string_view text, const BoundParams* params = nullptr) : text_(text), params_(params) {}
  // The token at *pos (after whitespace and comments); *pos moves past it.
  Token Scan(size_t* pos) const;
  // A /regex/ at *pos, or kIllegal when none starts there.
  Token ScanRegex(size_t* pos) const;
  // "line L, char C" of byte offset `pos` (1-based), as InfluxDB words positions.
  std::string Position(size_t pos) const;
  std::string_view text() const { return text_; }

 private:
  void SkipSpace(size_t* pos) const;
  Token ScanNumber(size_t* pos) const;
  Token ScanQuoted(size_t* pos, char quote) const;
  Token ScanBoundParameter(size_t* pos) const;

  std::string_view text_;
  const BoundParams* params_;
};

}  // namespace gnomon::query::influxql
