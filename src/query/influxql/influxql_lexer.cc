#include "src/query/influxql/influxql_lexer.h"

#include <cctype>
#include <string>

#include "src/base/ascii.h"
#include "src/query/influxql/influxql_ast.h"
#include "src/query/parser/interval.h"

namespace gnomon::query::influxql {
namespace {

bool IsIdentStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool IsIdentChar(char c) { return IsIdentStart(c) || std::isdigit(static_cast<unsigned char>(c)); }

Token Make(Token::Kind kind, std::string text, size_t pos) {
  Token t;
  t.kind = kind;
  t.text = std::move(text);
  t.pos = pos;
  return t;
}

}  // namespace

Result<int64_t> ParseDurationLiteral(std::string_view raw) {
  std::string normalized;  // InfluxQL's lone 'u' / 'µ' is microseconds
  for (size_t i = 0; i < raw.size(); ++i) {
    if (raw[i] == 'u' && (i + 1 == raw.size() || AsciiIsDigit(raw[i + 1]))) normalized += "us";
    else normalized += raw[i];
  }
  return ParseInterval(normalized);
}

bool Token::Is(std::string_view kw) const { return kind == Kind::kIdent && AsciiEqualsIgnoreCase(text, kw); }

std::string Token::Describe() const {
  switch (kind) {
    case Kind::kEof: return "EOF";
    case Kind::kString: return "'" + text + "'";
    case Kind::kRegex: return "/" + text + "/";
    case Kind::kQuotedIdent: return "\"" + text + "\"";
    default: return text;
  }
}

void Lexer::SkipSpace(size_t* pos) const {
  size_t p = *pos;
  while (p < text_.size()) {
    char c = text_[p];
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++p;
    } else if (c == '-' && p + 1 < text_.size() && text_[p + 1] == '-') {  // -- comment to end of line
      while (p < text_.size() && text_[p] != '\n') ++p;
    } else if (c == '/' && p + 1 < text_.size() && text_[p + 1] == '*') {  // /* comment */
      size_t end = text_.find("*/", p + 2);
      p = end == std::string_view::npos ? text_.size() : end + 2;
    } else {
      break;
    }
  }
  *pos = p;
}

Token Lexer::ScanQuoted(size_t* pos, char quote) const {
  size_t start = *pos;
  std::string value;
  for (size_t p = start + 1; p < text_.size(); ++p) {
    char c = text_[p];
    if (c == '\\' && p + 1 < text_.size()) {
      char n = text_[++p];
      if (n == 'n') value += '\n';
      else if (n == '\\' || n == '\'' || n == '"') value += n;
      else { value += '\\'; value += n; }
      continue;
    }
    if (c == quote) {
      *pos = p + 1;
      return Make(quote == '\'' ? Token::Kind::kString : Token::Kind::kQuotedIdent, std::move(value), start);
    }
    if (c == '\n' && quote == '"') break;
    value += c;
  }
  *pos = text_.size();
  return Make(Token::Kind::kIllegal, quote == '\'' ? "unterminated string" : "unterminated quoted identifier", start);
}

Token Lexer::ScanNumber(size_t* pos) const {
  size_t start = *pos, p = start;
  while (p < text_.size() && AsciiIsDigit(text_[p])) ++p;
  bool is_float = false;
  if (p + 1 < text_.size() && text_[p] == '.' && AsciiIsDigit(text_[p + 1])) {
    is_float = true;
    ++p;
    while (p < text_.size() && AsciiIsDigit(text_[p])) ++p;
  }
  // A unit right after the digits makes a duration: 10m, 1h30m, 500ms, 5u, 5µ.
  if (!is_float && p < text_.size() && (IsIdentStart(text_[p]) || text_[p] == '\xc2')) {
    size_t q = p;
    while (q < text_.size() && (IsIdentChar(text_[q]) || static_cast<unsigned char>(text_[q]) >= 0x80)) ++q;
    std::string raw(text_.substr(start, q - start));
    auto ns = ParseDurationLiteral(raw);
    *pos = q;
    if (!ns.ok()) return Make(Token::Kind::kIllegal, raw, start);
    Token t = Make(Token::Kind::kDuration, raw, start);
    t.int_value = *ns;
    return t;
  }
  *pos = p;
  std::string digits(text_.substr(start, p - start));
  Token t = Make(is_float ? Token::Kind::kNumber : Token::Kind::kInteger, digits, start);
  if (is_float) {
    t.number = std::stod(digits);
  } else {
    errno = 0;
    char* end = nullptr;
    long long v = std::strtoll(digits.c_str(), &end, 10);
    if (errno == ERANGE) return Make(Token::Kind::kIllegal, "integer out of range: " + digits, start);
    t.int_value = v;
  }
  return t;
}

// `$name`: the token bound to name, at this position. InfluxDB's words for the two failures.
Token Lexer::ScanBoundParameter(size_t* pos) const {
  size_t start = *pos, q = start + 1;
  while (q < text_.size() && IsIdentChar(text_[q])) ++q;
  *pos = q;
  std::string_view name = text_.substr(start + 1, q - start - 1);
  if (name.empty()) return Make(Token::Kind::kIllegal, "empty bound parameter", start);
  auto it = params_ == nullptr ? BoundParams::const_iterator() : params_->find(name);
  if (params_ == nullptr || it == params_->end()) {
    return Make(Token::Kind::kIllegal, "missing parameter: " + std::string(name), start);
  }
  Token t = it->second;
  t.pos = start;
  return t;
}

Token Lexer::Scan(size_t* pos) const {
  SkipSpace(pos);
  size_t p = *pos;
  if (p >= text_.size()) return Make(Token::Kind::kEof, "", p);
  char c = text_[p];
  auto single = [&](Token::Kind k, size_t len) {
    *pos = p + len;
    return Make(k, std::string(text_.substr(p, len)), p);
  };
  if (IsIdentStart(c)) {
    size_t q = p;
    while (q < text_.size() && IsIdentChar(text_[q])) ++q;
    return single(Token::Kind::kIdent, q - p);
  }
  if (AsciiIsDigit(c) || (c == '.' && p + 1 < text_.size() && AsciiIsDigit(text_[p + 1]))) return ScanNumber(pos);
  if (c == '\'' || c == '"') return ScanQuoted(pos, c);
  if (c == '$') return ScanBoundParameter(pos);
  char n = p + 1 < text_.size() ? text_[p + 1] : '\0';
  switch (c) {
    case '(': return single(Token::Kind::kLParen, 1);
    case ')': return single(Token::Kind::kRParen, 1);
    case ',': return single(Token::Kind::kComma, 1);
    case ';': return single(Token::Kind::kSemicolon, 1);
    case '.': return single(Token::Kind::kDot, 1);
    case ':':
      if (n == ':') return single(Token::Kind::kDoubleColon, 2);
      if (text_.size() - p > 11 && AsciiEqualsIgnoreCase(text_.substr(p + 1, 11), "measurement") &&
          (p + 12 == text_.size() || !IsIdentChar(text_[p + 12]))) {
        *pos = p + 12;  // INTO's backreference, read as one identifier no other text can spell
        return Make(Token::Kind::kIdent, kMeasurementBackref, p);
      }
      break;
    case '=': return single(Token::Kind::kOperator, n == '~' ? 2 : 1);
    case '!':
      if (n == '=' || n == '~') return single(Token::Kind::kOperator, 2);
      break;
    case '<': return single(Token::Kind::kOperator, n == '=' || n == '>' ? 2 : 1);
    case '>': return single(Token::Kind::kOperator, n == '=' ? 2 : 1);
    case '+': case '-': case '*': case '/': case '%': case '&': case '|': case '^':
      return single(Token::Kind::kOperator, 1);
    default: break;
  }
  *pos = p + 1;
  return Make(Token::Kind::kIllegal, std::string(1, c), p);
}

Token Lexer::ScanRegex(size_t* pos) const {
  SkipSpace(pos);
  size_t p = *pos;
  if (p >= text_.size() || text_[p] != '/') return Make(Token::Kind::kIllegal, "", p);
  std::string pattern;
  for (size_t q = p + 1; q < text_.size(); ++q) {
    if (text_[q] == '\\' && q + 1 < text_.size() && text_[q + 1] == '/') {  // \/ is a literal slash
      pattern += '/';
      ++q;
      continue;
    }
    if (text_[q] == '/') {
      *pos = q + 1;
      return Make(Token::Kind::kRegex, std::move(pattern), p);
    }
    pattern += text_[q];
  }
  return Make(Token::Kind::kIllegal, "unterminated regex", p);
}

std::string Lexer::Position(size_t pos) const {
  size_t line = 1, col = 1;
  for (size_t i = 0; i < pos && i < text_.size(); ++i) {
    if (text_[i] == '\n') { ++line; col = 1; } else { ++col; }
  }
  return "line " + std::to_string(line) + ", char " + std::to_string(col);
}

}  // namespace gnomon::query::influxql
