// The recursive-descent parser behind ParseSql. Internal to src/query/parser: its methods are
// split by concern over parser.cc (statements, tokens, errors), parser_select.cc (SELECT, FROM,
// clauses) and parser_expression.cc (expressions).
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "src/base/result.h"
#include "src/query/parser/ast.h"
#include "src/query/parser/token.h"

namespace gnomon::query::internal {

class Parser {
 public:
  // REQUIRES: `tokens` came from Tokenize(sql) (ends with kEnd); `sql` outlives the parser.
  Parser(std::string_view sql, std::vector<Token> tokens);

  // Statements separated by ';', each given `shared_sql` as its text.
  Result<std::vector<std::unique_ptr<Statement>>> ParseScript(
      std::shared_ptr<const std::string> shared_sql);

 private:
  class NestingGuard;
  using StatementPtr = std::unique_ptr<Statement>;

  // ---- Statements (parser.cc)
  Result<StatementPtr> ParseStatement();
  Result<StatementPtr> ParseSelectStatement();
  Result<StatementPtr> ParseExplain();
  Result<StatementPtr> ParseShow();
  Result<StatementPtr> ParseDescribe();
  Result<StatementPtr> ParseCreate();
  Result<StatementPtr> ParseDrop();
  Result<StatementPtr> ParseDelete();
  // name or schema.name; `what` names the thing for errors ("table name").
  Status ParseQualifiedName(std::string_view what, std::string* schema, std::string* name);
  // A non-reserved bare word (folded to lower case) or a quoted identifier.
  Result<std::string> ParseIdentifier(std::string_view what);

  // ---- SELECT (parser_select.cc)
  Result<std::unique_ptr<SelectNode>> ParseSelect();
  Result<std::unique_ptr<SelectNode>> ParseSetExpression();
  Result<std::unique_ptr<SelectNode>> ParseIntersection();
  Result<std::unique_ptr<SelectNode>> ParseSetOperand();
  Result<std::unique_ptr<SelectNode>> ParseSelectCore();
  Status ParseWith(std::vector<CommonTableExpression>* ctes);
  Status ParseSelectList(SelectNode* node);
  Result<ExprPtr> ParseSelectItem();
  Status ParseAlias(std::string* alias);
  Result<std::unique_ptr<TableRef>> ParseFrom();
  Result<std::unique_ptr<TableRef>> ParseTablePrimary();
  Status ParseGroupBy(SelectNode* node);
  Result<std::vector<OrderByItem>> ParseOrderByList();
  Status ParseLimitOffset(SelectNode* node);
  Result<int64_t> ParseCount(std::string_view clause);
  bool AtSelectStart() const;  // SELECT or WITH
  bool AtSelectStartAfterParen() const {  // ( SELECT or ( WITH
    return PeekIs(TokenType::kLParen) && (PeekKeyword("SELECT", 1) || PeekKeyword("WITH", 1));
  }
  // One or more ( before SELECT or WITH: a parenthesised query where no expression can stand.
  bool AtParenthesisedQuery() const {
    size_t i = 0;
    while (PeekIs(TokenType::kLParen, i)) ++i;
    return i > 0 && (PeekKeyword("SELECT", i) || PeekKeyword("WITH", i));
  }

  // ---- Expressions (parser_expression.cc)
  Result<ExprPtr> ParseExpression();
  Result<std::vector<ExprPtr>> ParseExpressionList();
  Result<ExprPtr> ParseOr();
  Result<ExprPtr> ParseAnd();
  Result<ExprPtr> ParseNot();
  Result<ExprPtr> ParseIs();
  Result<ExprPtr> ParseComparison();
  Result<ExprPtr> ParsePredicate();
  Result<ExprPtr> ParseConcat();
  Result<ExprPtr> ParseAdditive();
  Result<ExprPtr> ParseMultiplicative();
  Result<ExprPtr> ParsePower();
  Result<ExprPtr> ParseUnary();
  Result<ExprPtr> ParsePostfix();
  Result<ExprPtr> ParsePrimary();
  Result<ExprPtr> ParseNumber(const Token& token, bool negative, size_t start);
  Result<ExprPtr> ParseNameOrCall();
  Result<ExprPtr> ParseFunctionCall(std::string name, size_t start);
  Result<ExprPtr> ParseExtract(size_t begin);
  Result<std::unique_ptr<WindowSpec>> ParseOver();
  Result<std::unique_ptr<WindowSpec>> ParseWindow();
  Result<WindowFrame> ParseWindowFrame();
  Result<FrameBound> ParseFrameBound();
  Status ParseWindowClause(SelectNode* node);
  Result<ExprPtr> ParseCase();
  Result<ExprPtr> ParseCast();
  Result<ExprPtr> ParseIntervalLiteral();
  Result<ExprPtr> ParseParenthesized();
  Result<std::unique_ptr<SelectNode>> ParseSubqueryBody();  // "( SELECT ... )"
  Result<std::string> ParseTypeName();
  Result<ExprPtr> MakeConjunction(ConjunctionOp op, std::vector<ExprPtr> children, size_t start);
  // Sets span [start, end of the last consumed token) and depth; errors when too deep.
  Status Finish(ParsedExpression* e, size_t start);

  // ---- Tokens and errors (parser.cc)
  const Token& Peek(size_t ahead = 0) const;
  const Token& Advance();
  bool PeekIs(TokenType type, size_t ahead = 0) const { return Peek(ahead).type == type; }
  bool PeekKeyword(std::string_view keyword, size_t ahead = 0) const;
  bool ConsumeKeyword(std::string_view keyword);
  bool Consume(TokenType type);
  Status ExpectKeyword(std::string_view keyword);
  Status Expect(TokenType type, std::string_view what);
  // "syntax error at ... near "<current token>": expected <expected>".
  Status ErrorExpected(std::string_view expected) const;
  Status ErrorAt(const Token& token, std::string_view message) const;
  Status EnterNesting();
  size_t start() const { return Peek().offset; }

  std::string_view sql_;
  std::vector<Token> tokens_;
  size_t pos_ = 0;
  size_t prev_end_ = 0;  // end offset of the last consumed token
  int nesting_ = 0;
  // Index of the last token read as an implicit alias (SELECT a FORM cpu): used to point errors
  // at a misspelt keyword instead of the word after it.
  size_t implicit_alias_token_ = static_cast<size_t>(-1);
  std::vector<std::string> cte_names_;  // CTEs visible at this point, innermost last
};

// Counts one level of parenthesis/subquery/unary nesting for its lifetime.
//   NestingGuard guard(this);
//   GNOMON_RETURN_IF_ERROR(guard.status());
class Parser::NestingGuard {
 public:
  explicit NestingGuard(Parser* parser) : parser_(parser) { status_ = parser->EnterNesting(); }
  ~NestingGuard() { --parser_->nesting_; }
  NestingGuard(const NestingGuard&) = delete;
  NestingGuard& operator=(const NestingGuard&) = delete;
  const Status& status() const { return status_; }

 private:
  Parser* parser_;
  Status status_;
};

// Folds an unquoted identifier to lower case (ASCII only), as PostgreSQL does.
std::string FoldIdentifier(std::string_view word);

}  // namespace gnomon::query::internal
