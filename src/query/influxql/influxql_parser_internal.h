// The recursive-descent parser behind ParseQuery, split over influxql_parser*.cc.
#pragma once

#include <string>
#include <string_view>

#include "src/base/result.h"
#include "src/query/influxql/influxql_ast.h"
#include "src/query/influxql/influxql_lexer.h"

namespace gnomon::query::influxql {

// Bounded recursion: each nested expression, operand or parenthesis goes one level deeper.
struct DepthGuard {
  explicit DepthGuard(int* d) : depth(d) { ++*depth; }
  ~DepthGuard() { --*depth; }
  int* depth;
};

class Parser {
 public:
  Parser(std::string_view text, const BoundParams* params) : lexer_(text, params) { Advance(); }

  Result<std::vector<Statement>> ParseAll();

 private:
  // Tokens.
  const Token& Peek() const { return token_; }
  Token Advance();
  bool Accept(std::string_view keyword);
  bool AcceptKind(Token::Kind kind);
  bool AcceptOp(std::string_view op);
  Status Expect(std::string_view keyword);
  Status ExpectKind(Token::Kind kind, std::string_view what);
  Status Error(std::string_view expected) const;
  // Re-reads the current token as /regex/ when it is a '/'; true if it now is one.
  bool RegexHere();

  // Statements (influxql_parser.cc).
  Result<Statement> ParseStatement();
  Result<Statement> ParseShow();
  Result<Statement> ParseCreate();
  Result<Statement> ParseDrop();
  Result<Statement> ParseAlter();
  Result<Statement> ParseDelete();
  Status ParseRetentionPolicyOptions(Statement* st, bool create);
  Status ParseOnDatabase(Statement* st);
  Status ParseShowTail(Statement* st, bool with_from);
  Status ParseLimitOffset(int64_t* limit, int64_t* offset);

  // SELECT (influxql_parser_select.cc).
  Result<std::unique_ptr<SelectStatement>> ParseSelect();
  Status ParseFields(SelectStatement* s);
  Result<Source> ParseSource(bool allow_subquery);
  Status ParseSources(std::vector<Source>* out, bool allow_subquery);
  Status ParseDimensions(SelectStatement* s);
  Status ParseFill(SelectStatement* s);
  Result<std::string> ParseIdentifier(std::string_view what);
  Result<int64_t> ParseNonNegativeInteger(std::string_view what);

  // Expressions (influxql_parser_expression.cc).
  Result<ExprPtr> ParseExpr(int min_precedence = 0);
  Result<ExprPtr> ParseUnary();
  Result<ExprPtr> ParseCall(std::string name);

  static constexpr int kMaxDepth = 500;
  Lexer lexer_;
  int depth_ = 0;
  size_t pos_ = 0;  // byte offset after token_
  Token token_;
};

}  // namespace gnomon::query::influxql
