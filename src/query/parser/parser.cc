#include "src/query/parser/parser.h"

#include <algorithm>
#include <array>
#include <cctype>

#include "src/base/ascii.h"
#include "src/query/parser/lexer.h"
#include "src/query/parser/parser_internal.h"

namespace gnomon::query {
namespace internal {
namespace {

// Restricted Damerau-Levenshtein distance <= 1 (one substitution, insertion, deletion or
// adjacent transposition), case-insensitive.
bool WithinOneEdit(std::string_view a, std::string_view b) {
  auto eq = [](char x, char y) { return AsciiUpper(x) == AsciiUpper(y); };
  if (a.size() > b.size()) std::swap(a, b);
  if (b.size() - a.size() > 1) return false;
  size_t i = 0;
  while (i < a.size() && eq(a[i], b[i])) ++i;
  if (a.size() == b.size()) {
    if (i == a.size()) return true;
    auto rest_equal = [&](size_t from) {
      for (size_t k = from; k < a.size(); ++k) {
        if (!eq(a[k], b[k])) return false;
      }
      return true;
    };
    if (rest_equal(i + 1)) return true;  // one substitution
    return i + 1 < a.size() && eq(a[i], b[i + 1]) && eq(a[i + 1], b[i]) && rest_equal(i + 2);
  }
  for (size_t k = i; k < a.size(); ++k) {  // one insertion into the shorter word
    if (!eq(a[k], b[k + 1])) return false;
  }
  return true;
}

// The clause keyword `word` is probably a typo of, or empty.
std::string_view LikelyKeyword(std::string_view word) {
  static constexpr std::array<std::string_view, 10> kClauses = {
      "FROM", "WHERE", "GROUP", "ORDER", "HAVING", "LIMIT", "OFFSET", "JOIN", "SELECT", "UNION"};
  if (word.size() < 4) return {};
  for (std::string_view kw : kClauses) {
    if (!EqualsIgnoreCase(word, kw) && WithinOneEdit(word, kw)) return kw;
  }
  return {};
}

}  // namespace

std::string FoldIdentifier(std::string_view word) {
  std::string out(word);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

Parser::Parser(std::string_view sql, std::vector<Token> tokens)
    : sql_(sql), tokens_(std::move(tokens)) {
  GNOMON_CHECK(!tokens_.empty() && tokens_.back().type == TokenType::kEnd);
}

// ---- Tokens and errors

const Token& Parser::Peek(size_t ahead) const {
  return tokens_[std::min(pos_ + ahead, tokens_.size() - 1)];
}

const Token& Parser::Advance() {
  const Token& t = tokens_[pos_];
  if (t.type != TokenType::kEnd) ++pos_;
  prev_end_ = t.end();
  return t;
}

bool Parser::PeekKeyword(std::string_view keyword, size_t ahead) const {
  return IsKeyword(Peek(ahead), keyword);
}

bool Parser::ConsumeKeyword(std::string_view keyword) {
  if (!PeekKeyword(keyword)) return false;
  Advance();
  return true;
}

bool Parser::Consume(TokenType type) {
  if (!PeekIs(type)) return false;
  Advance();
  return true;
}

Status Parser::ExpectKeyword(std::string_view keyword) {
  if (ConsumeKeyword(keyword)) return Status::OK();
  return ErrorExpected(keyword);
}

Status Parser::Expect(TokenType type, std::string_view what) {
  if (Consume(type)) return Status::OK();
  return ErrorExpected(what);
}

Status Parser::ErrorAt(const Token& token, std::string_view message) const {
  return SyntaxError(sql_, token.offset, sql_.substr(token.offset, token.length), message);
}

Status Parser::ErrorExpected(std::string_view expected) const {
  // SELECT a FORM cpu reads FORM as an alias and fails at "cpu"; point at the typo instead.
  if (pos_ > 0 && pos_ - 1 == implicit_alias_token_) {
    const Token& alias = tokens_[pos_ - 1];
    std::string_view keyword = LikelyKeyword(alias.text);
    if (!keyword.empty()) return ErrorAt(alias, "expected " + std::string(keyword));
  }
  // ... ORDER BY x LIMT 5: the misspelt keyword is the current token.
  if (Peek().type == TokenType::kIdentifier) {
    std::string_view keyword = LikelyKeyword(Peek().text);
    if (!keyword.empty()) return ErrorAt(Peek(), "expected " + std::string(keyword));
  }
  return ErrorAt(Peek(), "expected " + std::string(expected));
}

Status Parser::EnterNesting() {
  if (++nesting_ > kMaxParseNesting) {
    return ErrorAt(Peek(), "nesting deeper than " + std::to_string(kMaxParseNesting) + " levels");
  }
  return Status::OK();
}

Result<std::string> Parser::ParseIdentifier(std::string_view what) {
  const Token& t = Peek();
  if (t.type == TokenType::kQuotedIdentifier) return Advance().text;
  if (t.type == TokenType::kIdentifier && !IsReservedKeyword(t.text)) {
    return FoldIdentifier(Advance().text);
  }
  return ErrorExpected(what);
}

Status Parser::ParseQualifiedName(std::string_view what, std::string* schema, std::string* name) {
  GNOMON_ASSIGN_OR_RETURN(std::string first, ParseIdentifier(what));
  if (Consume(TokenType::kDot)) {
    *schema = std::move(first);
    GNOMON_ASSIGN_OR_RETURN(*name, ParseIdentifier(what));
  } else {
    schema->clear();
    *name = std::move(first);
  }
  return Status::OK();
}

// ---- Statements

Result<std::vector<std::unique_ptr<Statement>>> Parser::ParseScript(
    std::shared_ptr<const std::string> shared_sql) {
  std::vector<StatementPtr> statements;
  while (true) {
    while (Consume(TokenType::kSemicolon)) {
    }
    if (PeekIs(TokenType::kEnd)) break;
    const size_t begin = start();
    GNOMON_ASSIGN_OR_RETURN(StatementPtr statement, ParseStatement());
    statement->span = SourceSpan{begin, prev_end_ - begin};
    statement->sql = shared_sql;
    statements.push_back(std::move(statement));
    if (!Consume(TokenType::kSemicolon) && !PeekIs(TokenType::kEnd)) {
      return ErrorExpected("end of statement");
    }
  }
  return statements;
}

Result<Parser::StatementPtr> Parser::ParseStatement() {
  if (AtSelectStart()) return ParseSelectStatement();
  if (PeekKeyword("EXPLAIN")) return ParseExplain();
  if (PeekKeyword("SHOW")) return ParseShow();
  if (PeekKeyword("DESCRIBE") || PeekKeyword("DESC")) return ParseDescribe();
  if (PeekKeyword("CREATE")) return ParseCreate();
  if (PeekKeyword("DROP")) return ParseDrop();
  if (PeekKeyword("DELETE")) return ParseDelete();
  return ErrorExpected("SELECT, WITH, EXPLAIN, SHOW, DESCRIBE, CREATE, DROP or DELETE");
}

Result<Parser::StatementPtr> Parser::ParseSelectStatement() {
  auto statement = std::make_unique<SelectStatement>();
  GNOMON_ASSIGN_OR_RETURN(statement->node, ParseSelect());
  return StatementPtr(std::move(statement));
}

Result<Parser::StatementPtr> Parser::ParseExplain() {
  Advance();  // EXPLAIN
  auto statement = std::make_unique<ExplainStatement>();
  statement->analyze = ConsumeKeyword("ANALYZE") || ConsumeKeyword("ANALYSE");
  if (!AtSelectStart()) return ErrorExpected("SELECT or WITH after EXPLAIN");
  const size_t begin = start();
  GNOMON_ASSIGN_OR_RETURN(statement->statement, ParseSelectStatement());
  statement->statement->span = SourceSpan{begin, prev_end_ - begin};
  return StatementPtr(std::move(statement));
}

Result<Parser::StatementPtr> Parser::ParseShow() {
  Advance();  // SHOW
  auto statement = std::make_unique<ShowStatement>();
  if (ConsumeKeyword("DATABASES")) {
    statement->kind = ShowKind::kDatabases;
  } else if (ConsumeKeyword("TABLES")) {
    statement->kind = ShowKind::kTables;
    if (ConsumeKeyword("FROM") || ConsumeKeyword("IN")) {
      GNOMON_ASSIGN_OR_RETURN(statement->schema_name, ParseIdentifier("database name"));
    }
  } else if (ConsumeKeyword("COLUMNS")) {
    statement->kind = ShowKind::kColumns;
    if (!ConsumeKeyword("FROM") && !ConsumeKeyword("IN")) return ErrorExpected("FROM");
    GNOMON_RETURN_IF_ERROR(
        ParseQualifiedName("table name", &statement->schema_name, &statement->table_name));
  } else {
    return ErrorExpected("DATABASES, TABLES or COLUMNS");
  }
  return StatementPtr(std::move(statement));
}

Result<Parser::StatementPtr> Parser::ParseDescribe() {
  Advance();  // DESCRIBE or DESC
  ConsumeKeyword("TABLE");
  auto statement = std::make_unique<ShowStatement>();
  statement->kind = ShowKind::kColumns;
  GNOMON_RETURN_IF_ERROR(
      ParseQualifiedName("table name", &statement->schema_name, &statement->table_name));
  return StatementPtr(std::move(statement));
}

Result<Parser::StatementPtr> Parser::ParseCreate() {
  Advance();  // CREATE
  if (!ConsumeKeyword("DATABASE")) {
    return ErrorExpected("DATABASE (tables are created by the first write)");
  }
  auto statement = std::make_unique<CreateDatabaseStatement>();
  if (ConsumeKeyword("IF")) {
    GNOMON_RETURN_IF_ERROR(ExpectKeyword("NOT"));
    GNOMON_RETURN_IF_ERROR(ExpectKeyword("EXISTS"));
    statement->if_not_exists = true;
  }
  GNOMON_ASSIGN_OR_RETURN(statement->name, ParseIdentifier("database name"));
  return StatementPtr(std::move(statement));
}

Result<Parser::StatementPtr> Parser::ParseDrop() {
  Advance();  // DROP
  auto statement = std::make_unique<DropStatement>();
  if (ConsumeKeyword("DATABASE")) {
    statement->kind = DropKind::kDatabase;
  } else if (ConsumeKeyword("TABLE")) {
    statement->kind = DropKind::kTable;
  } else {
    return ErrorExpected("DATABASE or TABLE");
  }
  if (ConsumeKeyword("IF")) {
    GNOMON_RETURN_IF_ERROR(ExpectKeyword("EXISTS"));
    statement->if_exists = true;
  }
  if (statement->kind == DropKind::kDatabase) {
    GNOMON_ASSIGN_OR_RETURN(statement->name, ParseIdentifier("database name"));
  } else {
    GNOMON_RETURN_IF_ERROR(
        ParseQualifiedName("table name", &statement->schema_name, &statement->name));
  }
  return StatementPtr(std::move(statement));
}

Result<Parser::StatementPtr> Parser::ParseDelete() {
  Advance();  // DELETE
  GNOMON_RETURN_IF_ERROR(ExpectKeyword("FROM"));
  auto statement = std::make_unique<DeleteStatement>();
  GNOMON_RETURN_IF_ERROR(
      ParseQualifiedName("table name", &statement->schema_name, &statement->table_name));
  if (ConsumeKeyword("WHERE")) {
    GNOMON_ASSIGN_OR_RETURN(statement->where, ParseExpression());
  }
  return StatementPtr(std::move(statement));
}

}  // namespace internal

Result<std::vector<std::unique_ptr<Statement>>> ParseSqlScript(std::string_view sql) {
  GNOMON_ASSIGN_OR_RETURN(std::vector<Token> tokens, Tokenize(sql));
  auto shared = std::make_shared<const std::string>(sql);
  // The parser reads the shared copy so that error excerpts and spans index the same bytes.
  internal::Parser parser(*shared, std::move(tokens));
  return parser.ParseScript(shared);
}

Result<std::unique_ptr<Statement>> ParseSql(std::string_view sql) {
  GNOMON_ASSIGN_OR_RETURN(auto statements, ParseSqlScript(sql));
  if (statements.empty()) {
    return SyntaxError(sql, sql.size(), {}, "empty statement");
  }
  if (statements.size() > 1) {
    const Statement& second = *statements[1];
    return SyntaxError(sql, second.span.offset, second.SourceText(second.span).substr(0, 20),
                       "expected a single statement");
  }
  return std::move(statements[0]);
}

}  // namespace gnomon::query
