#include "src/query/parser/lexer.h"

#include <algorithm>
#include <cctype>

#include "src/base/ascii.h"
#include "src/query/parser/interval.h"

namespace gnomon::query {
namespace {

bool IsIdentStart(char c) {
  return AsciiIsAlpha(c) || c == '_' || static_cast<unsigned char>(c) >= 0x80;
}
bool IsIdentChar(char c) {
  return IsIdentStart(c) || AsciiIsDigit(c) || c == '$';
}

// Source text for an error message: at most 40 bytes, control characters escaped.
std::string Shorten(std::string_view text) {
  std::string out;
  const size_t limit = 40;
  for (size_t i = 0; i < text.size() && i < limit; ++i) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    if (c == '\n') {
      out += "\\n";
    } else if (c < 0x20 || c == 0x7f) {
      static const char kHex[] = "0123456789abcdef";
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 15];
    } else {
      out += static_cast<char>(c);
    }
  }
  if (text.size() > limit) out += "...";
  return out;
}

class Lexer {
 public:
  explicit Lexer(std::string_view sql) : sql_(sql) {}

  Result<std::vector<Token>> Run() {
    std::vector<Token> tokens;
    while (true) {
      GNOMON_RETURN_IF_ERROR(SkipSpaceAndComments());
      if (pos_ >= sql_.size()) {
        tokens.push_back(Token{TokenType::kEnd, sql_.size(), 0, ""});
        return tokens;
      }
      Token token;
      GNOMON_RETURN_IF_ERROR(Next(&token));
      tokens.push_back(std::move(token));
    }
  }

 private:
  Status Error(size_t offset, std::string_view message) {
    return SyntaxError(sql_, offset, {}, message);
  }

  Status SkipSpaceAndComments() {
    while (pos_ < sql_.size()) {
      char c = sql_[pos_];
      if (std::isspace(static_cast<unsigned char>(c))) {
        ++pos_;
      } else if (c == '-' && At(pos_ + 1) == '-') {
        while (pos_ < sql_.size() && sql_[pos_] != '\n') ++pos_;
      } else if (c == '/' && At(pos_ + 1) == '*') {
        const size_t start = pos_;
        int depth = 0;
        while (true) {
          if (pos_ >= sql_.size()) return Error(start, "unterminated /* comment");
          if (sql_[pos_] == '/' && At(pos_ + 1) == '*') {
            ++depth;
            pos_ += 2;
          } else if (sql_[pos_] == '*' && At(pos_ + 1) == '/') {
            pos_ += 2;
            if (--depth == 0) break;
          } else {
            ++pos_;
          }
        }
      } else {
        break;
      }
    }
    return Status::OK();
  }

  char At(size_t i) const { return i < sql_.size() ? sql_[i] : '\0'; }

  Status Next(Token* token) {
    const size_t start = pos_;
    token->offset = start;
    const char c = sql_[pos_];
    if (IsIdentStart(c)) {
      while (pos_ < sql_.size() && IsIdentChar(sql_[pos_])) ++pos_;
      token->type = TokenType::kIdentifier;
      token->text = std::string(sql_.substr(start, pos_ - start));
    } else if (AsciiIsDigit(c) || (c == '.' && AsciiIsDigit(At(pos_ + 1)))) {
      GNOMON_RETURN_IF_ERROR(Number(token));
    } else if (c == '\'') {
      GNOMON_RETURN_IF_ERROR(Quoted('\'', "unterminated string literal", &token->text));
      token->type = TokenType::kString;
    } else if (c == '"' || c == '`') {
      GNOMON_RETURN_IF_ERROR(Quoted(c, "unterminated quoted identifier", &token->text));
      if (token->text.empty()) return Error(start, "zero-length quoted identifier");
      token->type = TokenType::kQuotedIdentifier;
    } else {
      GNOMON_RETURN_IF_ERROR(Punctuation(token));
    }
    token->length = pos_ - start;
    return Status::OK();
  }

  // 'it''s' or "a""b": the content between the quotes with doubled quotes collapsed.
  Status Quoted(char quote, std::string_view unterminated, std::string* out) {
    const size_t start = pos_++;
    while (true) {
      if (pos_ >= sql_.size()) return Error(start, unterminated);
      char c = sql_[pos_++];
      if (c == quote) {
        if (At(pos_) != quote) return Status::OK();
        ++pos_;
      }
      out->push_back(c);
    }
  }

  Status Number(Token* token) {
    const size_t start = pos_;
    bool is_float = false;
    while (AsciiIsDigit(At(pos_))) ++pos_;
    if (At(pos_) == '.' && At(pos_ + 1) != '.') {
      is_float = true;
      ++pos_;
      while (AsciiIsDigit(At(pos_))) ++pos_;
    }
    if ((At(pos_) == 'e' || At(pos_) == 'E') &&
        (AsciiIsDigit(At(pos_ + 1)) ||
         ((At(pos_ + 1) == '+' || At(pos_ + 1) == '-') && AsciiIsDigit(At(pos_ + 2))))) {
      is_float = true;
      pos_ += 2;
      while (AsciiIsDigit(At(pos_))) ++pos_;
    }
    token->type = is_float ? TokenType::kFloat : TokenType::kInteger;
    if (IsIdentChar(At(pos_))) {
      // 10m, 1h30m: an InfluxQL duration. Anything else glued to a number is junk, as in
      // PostgreSQL 15+ (which no longer reads "1as" as "1 AS").
      while (IsIdentChar(At(pos_))) ++pos_;
      std::string_view word = sql_.substr(start, pos_ - start);
      if (is_float || !ParseInterval(word).ok()) {
        return Error(start, "trailing junk after numeric literal \"" + Shorten(word) + "\"");
      }
      token->type = TokenType::kDuration;
    }
    token->text = std::string(sql_.substr(start, pos_ - start));
    return Status::OK();
  }

  Status Punctuation(Token* token) {
    const char c = sql_[pos_];
    const char n = At(pos_ + 1);
    auto one = [&](TokenType t) {
      token->type = t;
      pos_ += 1;
      return Status::OK();
    };
    auto two = [&](TokenType t) {
      token->type = t;
      pos_ += 2;
      return Status::OK();
    };
    switch (c) {
      case '(': return one(TokenType::kLParen);
      case ')': return one(TokenType::kRParen);
      case ',': return one(TokenType::kComma);
      case '.': return one(TokenType::kDot);
      case ';': return one(TokenType::kSemicolon);
      case '*': return one(TokenType::kStar);
      case '+': return one(TokenType::kPlus);
      case '-': return one(TokenType::kMinus);
      case '/': return one(TokenType::kSlash);
      case '%': return one(TokenType::kPercent);
      case '^': return one(TokenType::kCaret);
      case '=': return one(TokenType::kEq);
      case '<':
        if (n == '=') return two(TokenType::kLtEq);
        if (n == '>') return two(TokenType::kNotEq);
        return one(TokenType::kLt);
      case '>':
        if (n == '=') return two(TokenType::kGtEq);
        return one(TokenType::kGt);
      case '!':
        if (n == '=') return two(TokenType::kNotEq);
        break;
      case ':':
        if (n == ':') return two(TokenType::kDoubleColon);
        break;
      case '|':
        if (n == '|') return two(TokenType::kConcat);
        break;
      default:
        break;
    }
    return SyntaxError(sql_, pos_, sql_.substr(pos_, 1), "unexpected character");
  }

  std::string_view sql_;
  size_t pos_ = 0;
};

}  // namespace

bool IsReservedKeyword(std::string_view word) {
  // Sorted, upper case.
  static constexpr std::string_view kReserved[] = {
      "ALL",     "AND",    "AS",     "ASC",       "BETWEEN",   "BY",     "CASE",
      "CAST",    "CROSS",  "DESC",   "DISTINCT",  "ELSE",      "END",    "EXCEPT",
      "EXISTS",  "FALSE",  "FROM",   "FULL",      "GROUP",     "HAVING", "ILIKE",
      "IN",      "INNER",  "INTERSECT", "INTO",   "IS",        "JOIN",   "LATERAL",
      "LEFT",    "LIKE",   "LIMIT",  "NATURAL",   "NOT",       "NULL",   "OFFSET",
      "ON",      "OR",     "ORDER",  "OUTER",     "OVER",      "RIGHT",  "SELECT",
      "THEN",    "TRUE",   "UNION",  "USING",     "WHEN",      "WHERE",  "WINDOW",
      "WITH",
  };
  static_assert(std::is_sorted(std::begin(kReserved), std::end(kReserved)));
  // Upper-cased into a stack buffer: this runs for every identifier the parser looks at.
  char upper[16];
  if (word.size() > sizeof(upper)) return false;
  for (size_t i = 0; i < word.size(); ++i) {
    upper[i] = AsciiUpper(word[i]);
  }
  return std::binary_search(std::begin(kReserved), std::end(kReserved),
                            std::string_view(upper, word.size()));
}

SourcePosition LocateOffset(std::string_view sql, size_t offset) {
  SourcePosition p;
  offset = std::min(offset, sql.size());
  for (size_t i = 0; i < offset; ++i) {
    unsigned char c = static_cast<unsigned char>(sql[i]);
    if (c == '\n') {
      ++p.line;
      p.column = 1;
    } else if ((c & 0xC0) != 0x80) {  // not a UTF-8 continuation byte
      ++p.column;
    }
  }
  return p;
}

Status SyntaxError(std::string_view sql, size_t offset, std::string_view near,
                   std::string_view message) {
  SourcePosition p = LocateOffset(sql, offset);
  std::string out = "syntax error at line " + std::to_string(p.line) + ", column " +
                    std::to_string(p.column);
  if (!near.empty()) {
    out += " near \"" + Shorten(near) + "\"";
  } else if (offset >= sql.size()) {
    out += " near end of input";
  }
  out += ": ";
  out += message;
  return Status::InvalidArgument(std::move(out));
}

Result<std::vector<Token>> Tokenize(std::string_view sql) { return Lexer(sql).Run(); }

}  // namespace gnomon::query
