// SELECT, WITH, FROM and the clauses after it.
#include <charconv>

#include "src/query/parser/lexer.h"
#include "src/query/parser/parser_internal.h"

namespace gnomon::query::internal {

bool Parser::AtSelectStart() const {
  return PeekKeyword("SELECT") || PeekKeyword("WITH") || AtParenthesisedQuery();
}

namespace {

// SELECT * FROM (node): lets an outer WITH, ORDER BY or LIMIT apply over a parenthesised query
// that has its own.
std::unique_ptr<SelectNode> WrapInSelectStar(std::unique_ptr<SelectNode> node) {
  auto outer = std::make_unique<SelectNode>();
  outer->select_list.push_back(std::make_unique<StarExpression>());
  auto from = std::make_unique<SubqueryRef>();
  from->subquery = std::move(node);
  outer->from = std::move(from);
  return outer;
}

}  // namespace

// [WITH ...] a set expression, then ORDER BY / LIMIT / OFFSET for the whole of it.
Result<std::unique_ptr<SelectNode>> Parser::ParseSelect() {
  NestingGuard guard(this);
  GNOMON_RETURN_IF_ERROR(guard.status());
  const size_t begin = start();
  const size_t cte_scope = cte_names_.size();
  std::vector<CommonTableExpression> ctes;
  if (PeekKeyword("WITH")) GNOMON_RETURN_IF_ERROR(ParseWith(&ctes));
  GNOMON_ASSIGN_OR_RETURN(std::unique_ptr<SelectNode> node, ParseSetExpression());
  const bool outer_tail = PeekKeyword("ORDER") || PeekKeyword("LIMIT") || PeekKeyword("OFFSET");
  const bool own_tail = !node->order_by.empty() || node->limit || node->offset;
  if ((outer_tail && own_tail) || (!ctes.empty() && !node->ctes.empty())) node = WrapInSelectStar(std::move(node));
  if (PeekKeyword("ORDER")) {
    Advance();
    GNOMON_RETURN_IF_ERROR(ExpectKeyword("BY"));
    GNOMON_ASSIGN_OR_RETURN(node->order_by, ParseOrderByList());
  }
  GNOMON_RETURN_IF_ERROR(ParseLimitOffset(node.get()));
  if (PeekKeyword("WINDOW")) return ErrorAt(Peek(), "the WINDOW clause goes before ORDER BY and LIMIT");
  if (PeekKeyword("UNION") || PeekKeyword("INTERSECT") || PeekKeyword("EXCEPT")) {
    return ErrorAt(Peek(), "ORDER BY and LIMIT go after the last operand of a set operation; "
                           "parenthesise an operand to order or limit it alone");
  }
  for (CommonTableExpression& c : ctes) node->ctes.push_back(std::move(c));
  cte_names_.resize(cte_scope);
  node->span = SourceSpan{begin, prev_end_ - begin};
  return node;
}

// operand { UNION|EXCEPT [ALL|DISTINCT] operand }, INTERSECT binding tighter (the SQL standard).
Result<std::unique_ptr<SelectNode>> Parser::ParseSetExpression() {
  GNOMON_ASSIGN_OR_RETURN(std::unique_ptr<SelectNode> left, ParseIntersection());
  while (PeekKeyword("UNION") || PeekKeyword("EXCEPT")) {
    auto node = std::make_unique<SelectNode>();
    node->set_op = PeekKeyword("UNION") ? SetOperation::kUnion : SetOperation::kExcept;
    Advance();
    node->set_all = ConsumeKeyword("ALL");
    if (!node->set_all) ConsumeKeyword("DISTINCT");
    node->set_left = std::move(left);
    GNOMON_ASSIGN_OR_RETURN(node->set_right, ParseIntersection());
    left = std::move(node);
  }
  return left;
}

Result<std::unique_ptr<SelectNode>> Parser::ParseIntersection() {
  GNOMON_ASSIGN_OR_RETURN(std::unique_ptr<SelectNode> left, ParseSetOperand());
  while (PeekKeyword("INTERSECT")) {
    Advance();
    auto node = std::make_unique<SelectNode>();
    node->set_op = SetOperation::kIntersect;
    node->set_all = ConsumeKeyword("ALL");
    if (!node->set_all) ConsumeKeyword("DISTINCT");
    node->set_left = std::move(left);
    GNOMON_ASSIGN_OR_RETURN(node->set_right, ParseSetOperand());
    left = std::move(node);
  }
  return left;
}

// (query) or one SELECT ... [WINDOW ...] without ORDER BY / LIMIT.
Result<std::unique_ptr<SelectNode>> Parser::ParseSetOperand() {
  if (AtParenthesisedQuery()) return ParseSubqueryBody();
  return ParseSelectCore();
}

Result<std::unique_ptr<SelectNode>> Parser::ParseSelectCore() {
  NestingGuard guard(this);
  GNOMON_RETURN_IF_ERROR(guard.status());
  const size_t begin = start();
  auto node = std::make_unique<SelectNode>();
  GNOMON_RETURN_IF_ERROR(ExpectKeyword("SELECT"));
  if (ConsumeKeyword("DISTINCT")) {
    node->distinct = true;
    if (ConsumeKeyword("ON")) {
      GNOMON_RETURN_IF_ERROR(Expect(TokenType::kLParen, "'(' after DISTINCT ON"));
      GNOMON_ASSIGN_OR_RETURN(node->distinct_on, ParseExpressionList());
      GNOMON_RETURN_IF_ERROR(Expect(TokenType::kRParen, "')'"));
    }
  } else {
    ConsumeKeyword("ALL");
  }
  GNOMON_RETURN_IF_ERROR(ParseSelectList(node.get()));
  if (ConsumeKeyword("INTO")) {
    GNOMON_ASSIGN_OR_RETURN(node->into_table, ParseIdentifier("table name after INTO"));
  }
  if (ConsumeKeyword("FROM")) {
    GNOMON_ASSIGN_OR_RETURN(node->from, ParseFrom());
  }
  if (ConsumeKeyword("WHERE")) {
    GNOMON_ASSIGN_OR_RETURN(node->where, ParseExpression());
  }
  if (PeekKeyword("GROUP")) GNOMON_RETURN_IF_ERROR(ParseGroupBy(node.get()));
  if (ConsumeKeyword("HAVING")) {
    GNOMON_ASSIGN_OR_RETURN(node->having, ParseExpression());
  }
  if (ConsumeKeyword("WINDOW")) GNOMON_RETURN_IF_ERROR(ParseWindowClause(node.get()));
  node->span = SourceSpan{begin, prev_end_ - begin};
  return node;
}

// WINDOW w AS (spec) [, ...], after WINDOW.
Status Parser::ParseWindowClause(SelectNode* node) {
  do {
    const size_t begin = start();
    NamedWindow w;
    GNOMON_ASSIGN_OR_RETURN(w.name, ParseIdentifier("window name"));
    for (const NamedWindow& other : node->windows) {
      if (other.name == w.name) {
        return SyntaxError(sql_, begin, sql_.substr(begin, prev_end_ - begin),
                           "window \"" + w.name + "\" is defined more than once");
      }
    }
    GNOMON_RETURN_IF_ERROR(ExpectKeyword("AS"));
    GNOMON_ASSIGN_OR_RETURN(w.spec, ParseWindow());
    node->windows.push_back(std::move(w));
  } while (Consume(TokenType::kComma));
  return Status::OK();
}

Status Parser::ParseWith(std::vector<CommonTableExpression>* ctes) {
  Advance();  // WITH
  if (PeekKeyword("RECURSIVE")) return ErrorAt(Peek(), "WITH RECURSIVE is not supported");
  do {
    const size_t begin = start();
    CommonTableExpression cte;
    GNOMON_ASSIGN_OR_RETURN(cte.name, ParseIdentifier("CTE name"));
    for (const CommonTableExpression& other : *ctes) {
      if (other.name == cte.name) {
        return SyntaxError(sql_, begin, sql_.substr(begin, prev_end_ - begin),
                           "CTE name \"" + cte.name + "\" specified more than once");
      }
    }
    if (PeekIs(TokenType::kLParen)) {
      return ErrorAt(Peek(), "CTE column lists are not supported; alias the columns instead");
    }
    GNOMON_RETURN_IF_ERROR(ExpectKeyword("AS"));
    if (ConsumeKeyword("NOT")) {
      GNOMON_RETURN_IF_ERROR(ExpectKeyword("MATERIALIZED"));
    } else {
      ConsumeKeyword("MATERIALIZED");
    }
    GNOMON_ASSIGN_OR_RETURN(cte.query, ParseSubqueryBody());
    cte.span = SourceSpan{begin, prev_end_ - begin};
    // Visible to the CTEs after it and to the query body, not to itself.
    cte_names_.push_back(cte.name);
    ctes->push_back(std::move(cte));
  } while (Consume(TokenType::kComma));
  return Status::OK();
}

Status Parser::ParseSelectList(SelectNode* node) {
  do {
    GNOMON_ASSIGN_OR_RETURN(ExprPtr item, ParseSelectItem());
    node->select_list.push_back(std::move(item));
  } while (Consume(TokenType::kComma));
  return Status::OK();
}

Result<ExprPtr> Parser::ParseSelectItem() {
  const size_t begin = start();
  if (PeekIs(TokenType::kStar)) {
    Advance();
    auto star = std::make_unique<StarExpression>();
    GNOMON_RETURN_IF_ERROR(Finish(star.get(), begin));
    return ExprPtr(std::move(star));
  }
  const Token& first = Peek();
  if ((first.type == TokenType::kQuotedIdentifier ||
       (first.type == TokenType::kIdentifier && !IsReservedKeyword(first.text))) &&
      PeekIs(TokenType::kDot, 1) && PeekIs(TokenType::kStar, 2)) {
    std::string relation = first.type == TokenType::kQuotedIdentifier ? first.text
                                                                      : FoldIdentifier(first.text);
    Advance();
    Advance();
    Advance();
    auto star = std::make_unique<StarExpression>(std::move(relation));
    GNOMON_RETURN_IF_ERROR(Finish(star.get(), begin));
    return ExprPtr(std::move(star));
  }
  if (PeekIs(TokenType::kEnd) || PeekKeyword("FROM")) return ErrorExpected("select list item");
  GNOMON_ASSIGN_OR_RETURN(ExprPtr expr, ParseExpression());
  GNOMON_RETURN_IF_ERROR(ParseAlias(&expr->alias));
  return expr;
}

Status Parser::ParseAlias(std::string* alias) {
  if (ConsumeKeyword("AS")) {
    // After AS any word works, keywords included (AS day, AS "hours driven").
    const Token& t = Peek();
    if (t.type == TokenType::kQuotedIdentifier) {
      *alias = Advance().text;
    } else if (t.type == TokenType::kIdentifier) {
      *alias = FoldIdentifier(Advance().text);
    } else {
      return ErrorExpected("alias after AS");
    }
    return Status::OK();
  }
  const Token& t = Peek();
  if (t.type == TokenType::kQuotedIdentifier) {
    *alias = Advance().text;
  } else if (t.type == TokenType::kIdentifier && !IsReservedKeyword(t.text) &&
             !(PeekKeyword("ASOF") && (PeekKeyword("JOIN", 1) || PeekKeyword("LEFT", 1)))) {
    implicit_alias_token_ = pos_;
    *alias = FoldIdentifier(Advance().text);
  }
  return Status::OK();
}

Result<std::unique_ptr<TableRef>> Parser::ParseFrom() {
  const size_t begin = start();
  GNOMON_ASSIGN_OR_RETURN(std::unique_ptr<TableRef> left, ParseTablePrimary());
  while (true) {
    JoinType type;
    const bool asof = PeekKeyword("ASOF") && (PeekKeyword("JOIN", 1) || PeekKeyword("LEFT", 1));
    if (asof) {
      Advance();
      type = ConsumeKeyword("LEFT") ? JoinType::kLeft : JoinType::kInner;
      ConsumeKeyword("OUTER");
      GNOMON_RETURN_IF_ERROR(ExpectKeyword("JOIN"));
    } else if (ConsumeKeyword("JOIN")) {
      type = JoinType::kInner;
    } else if (ConsumeKeyword("INNER")) {
      type = JoinType::kInner;
      GNOMON_RETURN_IF_ERROR(ExpectKeyword("JOIN"));
    } else if (PeekKeyword("LEFT") || PeekKeyword("RIGHT") || PeekKeyword("FULL")) {
      type = PeekKeyword("LEFT")    ? JoinType::kLeft
             : PeekKeyword("RIGHT") ? JoinType::kRight
                                    : JoinType::kFull;
      Advance();
      ConsumeKeyword("OUTER");
      GNOMON_RETURN_IF_ERROR(ExpectKeyword("JOIN"));
    } else if (ConsumeKeyword("CROSS")) {
      type = JoinType::kCross;
      GNOMON_RETURN_IF_ERROR(ExpectKeyword("JOIN"));
    } else if (Consume(TokenType::kComma)) {
      type = JoinType::kCross;  // FROM a, b: a cross join (WHERE's equalities become its keys)
    } else if (PeekKeyword("NATURAL")) {
      return ErrorAt(Peek(), "NATURAL JOIN is not supported");
    } else {
      break;
    }
    auto join = std::make_unique<JoinRef>();
    join->join_type = type;
    join->asof = asof;
    join->left = std::move(left);
    GNOMON_ASSIGN_OR_RETURN(join->right, ParseTablePrimary());
    if (type != JoinType::kCross) {
      if (ConsumeKeyword("ON")) {
        GNOMON_ASSIGN_OR_RETURN(join->condition, ParseExpression());
      } else if (asof) {
        return ErrorExpected("ON after ASOF JOIN (equal keys AND one time comparison)");
      } else if (ConsumeKeyword("USING")) {
        GNOMON_RETURN_IF_ERROR(Expect(TokenType::kLParen, "'(' after USING"));
        do {
          GNOMON_ASSIGN_OR_RETURN(std::string column, ParseIdentifier("column name"));
          join->using_columns.push_back(std::move(column));
        } while (Consume(TokenType::kComma));
        GNOMON_RETURN_IF_ERROR(Expect(TokenType::kRParen, "')'"));
      } else {
        return ErrorExpected("ON or USING");
      }
    }
    join->span = SourceSpan{begin, prev_end_ - begin};
    left = std::move(join);
  }
  return left;
}

Result<std::unique_ptr<TableRef>> Parser::ParseTablePrimary() {
  const size_t begin = start();
  const bool lateral = ConsumeKeyword("LATERAL");
  std::unique_ptr<TableRef> ref;
  if (PeekIs(TokenType::kLParen)) {
    if (!AtParenthesisedQuery()) return ErrorAt(Peek(1), "expected SELECT or WITH");
    auto subquery = std::make_unique<SubqueryRef>();
    subquery->lateral = lateral;
    GNOMON_ASSIGN_OR_RETURN(subquery->subquery, ParseSubqueryBody());
    ref = std::move(subquery);
  } else if (lateral) {
    return ErrorExpected("'(' after LATERAL");
  } else {
    auto table = std::make_unique<BaseTableRef>();
    GNOMON_RETURN_IF_ERROR(ParseQualifiedName("table name", &table->schema_name, &table->table_name));
    if (table->schema_name.empty()) {
      for (const std::string& cte : cte_names_) {
        if (cte == table->table_name) table->cte_reference = true;
      }
    }
    ref = std::move(table);
  }
  GNOMON_RETURN_IF_ERROR(ParseAlias(&ref->alias));
  if (PeekIs(TokenType::kLParen) && !ref->alias.empty()) {
    return ErrorAt(Peek(), "column alias lists are not supported");
  }
  ref->span = SourceSpan{begin, prev_end_ - begin};
  return ref;
}

Status Parser::ParseGroupBy(SelectNode* node) {
  Advance();  // GROUP
  GNOMON_RETURN_IF_ERROR(ExpectKeyword("BY"));
  GNOMON_ASSIGN_OR_RETURN(node->group_by, ParseExpressionList());
  // InfluxQL's `GROUP BY time(10m), "name" fill(0)`, which TSBS sends as "SQL" to some targets.
  if (PeekKeyword("FILL") && PeekIs(TokenType::kLParen, 1)) {
    Advance();
    Advance();
    GNOMON_ASSIGN_OR_RETURN(node->fill, ParseExpression());
    GNOMON_RETURN_IF_ERROR(Expect(TokenType::kRParen, "')'"));
  }
  return Status::OK();
}

Result<std::vector<OrderByItem>> Parser::ParseOrderByList() {
  std::vector<OrderByItem> items;
  do {
    OrderByItem item;
    GNOMON_ASSIGN_OR_RETURN(item.expression, ParseExpression());
    if (ConsumeKeyword("DESC")) {
      item.descending = true;
    } else {
      ConsumeKeyword("ASC");
    }
    if (ConsumeKeyword("NULLS")) {
      if (ConsumeKeyword("FIRST")) {
        item.nulls = NullsOrder::kFirst;
      } else if (ConsumeKeyword("LAST")) {
        item.nulls = NullsOrder::kLast;
      } else {
        return ErrorExpected("FIRST or LAST");
      }
    }
    items.push_back(std::move(item));
  } while (Consume(TokenType::kComma));
  return items;
}

Result<int64_t> Parser::ParseCount(std::string_view clause) {
  const Token& t = Peek();
  int64_t value = 0;
  if (t.type != TokenType::kInteger) {
    return ErrorExpected("a non-negative integer after " + std::string(clause));
  }
  auto [ptr, ec] = std::from_chars(t.text.data(), t.text.data() + t.text.size(), value);
  if (ec != std::errc() || ptr != t.text.data() + t.text.size()) {
    return ErrorAt(t, std::string(clause) + " value out of range");
  }
  Advance();
  return value;
}

Status Parser::ParseLimitOffset(SelectNode* node) {
  bool seen_limit = false;
  bool seen_offset = false;
  while (true) {
    if (PeekKeyword("LIMIT")) {
      if (seen_limit) return ErrorAt(Peek(), "LIMIT given twice");
      seen_limit = true;
      Advance();
      if (!ConsumeKeyword("ALL")) {
        GNOMON_ASSIGN_OR_RETURN(node->limit, ParseCount("LIMIT"));
      }
    } else if (PeekKeyword("OFFSET")) {
      if (seen_offset) return ErrorAt(Peek(), "OFFSET given twice");
      seen_offset = true;
      Advance();
      GNOMON_ASSIGN_OR_RETURN(node->offset, ParseCount("OFFSET"));
      if (!ConsumeKeyword("ROWS")) ConsumeKeyword("ROW");
    } else {
      return Status::OK();
    }
  }
}

}  // namespace gnomon::query::internal
