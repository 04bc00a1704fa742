#include "src/server/api/influxql_statement.h"

#include <fmt/format.h>

#include <cctype>

#include "src/server/config.h"

namespace gnomon::server::api {
namespace {

struct Token {
  enum class Kind { kIdent, kQuotedIdent, kString, kNumber, kPunct, kSemicolon, kEof } kind;
  std::string text;  // identifiers unquoted; keywords compared case-insensitively
  size_t offset;     // byte offset in the query
};

bool IsIdentStart(unsigned char c) { return std::isalpha(c) || c == '_' || c >= 0x80; }
bool IsIdentChar(unsigned char c) { return std::isalnum(c) || c == '_' || c >= 0x80; }

// "line L, char C" (both 1-based) of a byte offset, as InfluxDB's parser reports positions.
std::string Position(std::string_view query, size_t offset) {
  size_t line = 1, col = 1;
  for (size_t i = 0; i < offset && i < query.size(); ++i) {
    if (query[i] == '\n') {
      ++line;
      col = 1;
    } else {
      ++col;
    }
  }
  return fmt::format("line {}, char {}", line, col);
}

Result<std::vector<Token>> Lex(std::string_view q) {
  std::vector<Token> tokens;
  size_t i = 0;
  while (i < q.size()) {
    unsigned char c = static_cast<unsigned char>(q[i]);
    if (std::isspace(c)) {
      ++i;
    } else if (c == '-' && i + 1 < q.size() && q[i + 1] == '-') {
      while (i < q.size() && q[i] != '\n') ++i;
    } else if (c == '/' && i + 1 < q.size() && q[i + 1] == '*') {
      size_t end = q.find("*/", i + 2);
      if (end == std::string_view::npos) {
        return Status::InvalidArgument("unterminated comment at " + Position(q, i));
      }
      i = end + 2;
    } else if (c == '"' || c == '\'') {
      size_t start = i++;
      std::string text;
      bool closed = false;
      while (i < q.size()) {
        if (q[i] == '\\' && i + 1 < q.size()) {
          text.push_back(q[i + 1]);
          i += 2;
        } else if (q[i] == static_cast<char>(c)) {
          ++i;
          closed = true;
          break;
        } else {
          text.push_back(q[i++]);
        }
      }
      if (!closed) {
        return Status::InvalidArgument(
            fmt::format("unterminated {} at {}", c == '"' ? "quoted identifier" : "string",
                        Position(q, start)));
      }
      tokens.push_back({c == '"' ? Token::Kind::kQuotedIdent : Token::Kind::kString,
                        std::move(text), start});
    } else if (IsIdentStart(c)) {
      size_t start = i;
      while (i < q.size() && IsIdentChar(static_cast<unsigned char>(q[i]))) ++i;
      tokens.push_back({Token::Kind::kIdent, std::string(q.substr(start, i - start)), start});
    } else if (std::isdigit(c)) {
      // Numbers and durations ("7d", "1h30m"): digits and unit letters form one token.
      size_t start = i;
      while (i < q.size() && (IsIdentChar(static_cast<unsigned char>(q[i])) || q[i] == '.')) ++i;
      tokens.push_back({Token::Kind::kNumber, std::string(q.substr(start, i - start)), start});
    } else if (c == ';') {
      tokens.push_back({Token::Kind::kSemicolon, ";", i++});
    } else {
      tokens.push_back({Token::Kind::kPunct, std::string(1, static_cast<char>(c)), i++});
    }
  }
  tokens.push_back({Token::Kind::kEof, "", q.size()});
  return tokens;
}

bool IEquals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::toupper(static_cast<unsigned char>(a[i])) != static_cast<unsigned char>(b[i])) {
      return false;
    }
  }
  return true;
}

class StatementParser {
 public:
  StatementParser(std::string_view query, const std::vector<Token>& tokens, size_t begin,
                  size_t end)
      : query_(query), tokens_(tokens), pos_(begin), end_(end) {}

  Result<InfluxqlStatement> Parse() {
    InfluxqlStatement stmt;
    size_t text_begin = tokens_[pos_].offset;
    size_t text_end = end_ < tokens_.size() ? tokens_[end_].offset : query_.size();
    stmt.text = Trim(query_.substr(text_begin, text_end - text_begin));
    if (Keyword("SHOW")) {
      if (Keyword("DATABASES")) {
        stmt.kind = InfluxqlStatement::Kind::kShowDatabases;
        GNOMON_RETURN_IF_ERROR(ExpectEnd());
      } else if (Keyword("MEASUREMENTS")) {
        if (Keyword("ON")) {
          GNOMON_ASSIGN_OR_RETURN(stmt.database, Identifier());
        }
        // Filters (WITH MEASUREMENT, WHERE, LIMIT) are not implemented: report, do not ignore.
        stmt.kind = AtEnd() ? InfluxqlStatement::Kind::kShowMeasurements
                            : InfluxqlStatement::Kind::kUnsupported;
      } else {
        stmt.kind = InfluxqlStatement::Kind::kUnsupported;
        if (SkipTo("ON")) stmt.database = PeekIdentifier();
      }
      return stmt;
    }
    if (Keyword("CREATE")) {
      if (!Keyword("DATABASE")) return Unsupported(stmt);
      stmt.kind = InfluxqlStatement::Kind::kCreateDatabase;
      GNOMON_ASSIGN_OR_RETURN(stmt.database, Identifier());
      if (Keyword("WITH")) GNOMON_RETURN_IF_ERROR(RetentionOptions(&stmt));
      GNOMON_RETURN_IF_ERROR(ExpectEnd());
      return stmt;
    }
    if (Keyword("DROP")) {
      if (!Keyword("DATABASE")) return Unsupported(stmt);
      stmt.kind = InfluxqlStatement::Kind::kDropDatabase;
      GNOMON_ASSIGN_OR_RETURN(stmt.database, Identifier());
      GNOMON_RETURN_IF_ERROR(ExpectEnd());
      return stmt;
    }
    for (std::string_view kw : {"SELECT", "DELETE", "ALTER", "GRANT", "REVOKE", "KILL", "EXPLAIN",
                                "SET"}) {
      if (Keyword(kw)) return Unsupported(stmt);
    }
    return Error("SELECT, DELETE, SHOW, CREATE, DROP, EXPLAIN, GRANT, REVOKE, ALTER, SET, KILL");
  }

 private:
  static std::string Trim(std::string_view s) {
    size_t b = s.find_first_not_of(" \t\r\n");
    if (b == std::string_view::npos) return "";
    size_t e = s.find_last_not_of(" \t\r\n");
    return std::string(s.substr(b, e - b + 1));
  }

  const Token& Peek() const { return pos_ < end_ ? tokens_[pos_] : tokens_.back(); }
  bool AtEnd() const { return pos_ >= end_; }

  bool Keyword(std::string_view kw) {
    if (AtEnd() || Peek().kind != Token::Kind::kIdent || !IEquals(Peek().text, kw)) return false;
    ++pos_;
    return true;
  }

  Status Error(std::string_view expected) const {
    const Token& t = Peek();
    std::string found = AtEnd() ? "EOF" : t.text;
    size_t offset = AtEnd() ? (end_ < tokens_.size() ? tokens_[end_].offset : query_.size())
                            : t.offset;
    return Status::InvalidArgument(
        fmt::format("found {}, expected {} at {}", found, expected, Position(query_, offset)));
  }

  Result<std::string> Identifier() {
    if (AtEnd() || (Peek().kind != Token::Kind::kIdent && Peek().kind != Token::Kind::kQuotedIdent)) {
      return Error("identifier");
    }
    return tokens_[pos_++].text;
  }

  std::string PeekIdentifier() const {
    if (AtEnd()) return "";
    const Token& t = Peek();
    return t.kind == Token::Kind::kIdent || t.kind == Token::Kind::kQuotedIdent ? t.text : "";
  }

  // Advances past the keyword `kw` if it occurs in the rest of the statement.
  bool SkipTo(std::string_view kw) {
    while (!AtEnd()) {
      if (Keyword(kw)) return true;
      ++pos_;
    }
    return false;
  }

  Status ExpectEnd() const { return AtEnd() ? Status::OK() : Error("EOF"); }

  Result<InfluxqlStatement> Unsupported(InfluxqlStatement stmt) {
    stmt.kind = InfluxqlStatement::Kind::kUnsupported;
    stmt.database.clear();
    return stmt;
  }

  Result<int64_t> Duration() {
    if (AtEnd()) return Error("duration");
    const Token& t = Peek();
    if (t.kind == Token::Kind::kIdent && IEquals(t.text, "INF")) {
      ++pos_;
      return int64_t{0};
    }
    if (t.kind != Token::Kind::kNumber) return Error("duration");
    auto d = ParseDuration(t.text);
    if (!d.ok()) return Status::InvalidArgument(d.status().message() + " at " + Position(query_, t.offset));
    ++pos_;
    return *d;
  }

  // WITH [DURATION d] [REPLICATION n] [SHARD DURATION d] [NAME rp]: at least one, in any order.
  Status RetentionOptions(InfluxqlStatement* stmt) {
    int seen = 0;
    for (;;) {
      if (Keyword("DURATION")) {
        GNOMON_ASSIGN_OR_RETURN(stmt->retention_ns, Duration());
      } else if (Keyword("REPLICATION")) {
        if (AtEnd() || Peek().kind != Token::Kind::kNumber) return Error("integer");
        ++pos_;  // one node: the replication factor has nothing to configure
      } else if (Keyword("SHARD")) {
        if (!Keyword("DURATION")) return Error("DURATION");
        GNOMON_ASSIGN_OR_RETURN(int64_t ignored, Duration());
        (void)ignored;  // partitions have the engine's fixed width
      } else if (Keyword("NAME")) {
        GNOMON_ASSIGN_OR_RETURN(std::string ignored, Identifier());
        (void)ignored;
      } else {
        break;
      }
      ++seen;
    }
    if (seen == 0) return Error("DURATION, NAME, REPLICATION, SHARD");
    return Status::OK();
  }

  std::string_view query_;
  const std::vector<Token>& tokens_;
  size_t pos_;
  size_t end_;  // index of this statement's terminating ';' or EOF token
};

}  // namespace

Result<std::vector<InfluxqlStatement>> ParseInfluxql(std::string_view query) {
  GNOMON_ASSIGN_OR_RETURN(std::vector<Token> tokens, Lex(query));
  std::vector<InfluxqlStatement> statements;
  size_t begin = 0;
  for (size_t i = 0; i < tokens.size(); ++i) {
    if (tokens[i].kind != Token::Kind::kSemicolon && tokens[i].kind != Token::Kind::kEof) continue;
    bool empty = i == begin;
    bool last = tokens[i].kind == Token::Kind::kEof;
    // "a; b;" ends with an empty statement: allowed. An empty statement elsewhere is an error.
    if (!empty || !last || statements.empty()) {
      StatementParser parser(query, tokens, begin, i);
      GNOMON_ASSIGN_OR_RETURN(InfluxqlStatement stmt, parser.Parse());
      statements.push_back(std::move(stmt));
    }
    begin = i + 1;
  }
  return statements;
}

}  // namespace gnomon::server::api
