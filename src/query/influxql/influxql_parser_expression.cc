// InfluxQL expressions. Precedence, loosest first: OR; AND; = != <> < <= > >= =~ !~; + - | ^;
// * / % &. The right side of =~ and !~ is a /regex/.
#include "src/query/influxql/influxql_parser_internal.h"

namespace gnomon::query::influxql {
namespace {

// Words that end an expression rather than name a field ("SELECT FROM cpu" is an error).
bool IsReserved(const Token& t) {
  static const char* const kWords[] = {"select", "from", "where", "group", "by", "order", "limit", "offset",
                                       "slimit", "soffset", "as", "and", "or", "into", "fill", "tz", "asc", "desc"};
  for (const char* w : kWords) {
    if (t.Is(w)) return true;
  }
  return false;
}

int Precedence(const Token& t) {
  if (t.Is("or")) return 1;
  if (t.Is("and")) return 2;
  if (t.kind != Token::Kind::kOperator) return 0;
  const std::string& op = t.text;
  if (op == "=" || op == "!=" || op == "<>" || op == "<" || op == "<=" || op == ">" || op == ">=" ||
      op == "=~" || op == "!~") {
    return 3;
  }
  if (op == "+" || op == "-" || op == "|" || op == "^") return 4;
  if (op == "*" || op == "/" || op == "%" || op == "&") return 5;
  return 0;
}

}  // namespace

Result<ExprPtr> Parser::ParseExpr(int min_precedence) {
  DepthGuard guard(&depth_);
  if (depth_ > kMaxDepth) return Status::InvalidArgument("expression nested too deeply");
  GNOMON_ASSIGN_OR_RETURN(ExprPtr left, ParseUnary());
  while (true) {
    int prec = Precedence(token_);
    if (prec == 0 || prec <= min_precedence) break;
    std::string op = Advance().text;
    if (prec <= 2) {
      for (char& c : op) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    }
    if (op == "<>") op = "!=";
    ExprPtr right;
    if (op == "=~" || op == "!~") {
      if (!RegexHere()) return Error("regex");
      auto re = std::make_unique<Expr>();
      re->kind = Expr::Kind::kRegex;
      re->text = Advance().text;
      right = std::move(re);
    } else {
      GNOMON_ASSIGN_OR_RETURN(right, ParseExpr(prec));
    }
    left = MakeBinary(std::move(op), std::move(left), std::move(right));
  }
  return left;
}

Result<ExprPtr> Parser::ParseUnary() {
  DepthGuard guard(&depth_);
  if (depth_ > kMaxDepth) return Status::InvalidArgument("expression nested too deeply");
  auto e = std::make_unique<Expr>();
  if (token_.kind == Token::Kind::kOperator && (token_.text == "-" || token_.text == "+")) {
    bool negative = Advance().text == "-";
    GNOMON_ASSIGN_OR_RETURN(ExprPtr operand, ParseUnary());
    if (!negative) return operand;
    switch (operand->kind) {
      case Expr::Kind::kInteger: operand->int_value = -operand->int_value; return operand;
      case Expr::Kind::kNumber: operand->number_value = -operand->number_value; return operand;
      case Expr::Kind::kDuration: operand->int_value = -operand->int_value; return operand;
      default: {
        auto zero = std::make_unique<Expr>();
        zero->kind = Expr::Kind::kInteger;
        return MakeBinary("-", std::move(zero), std::move(operand));
      }
    }
  }
  switch (token_.kind) {
    case Token::Kind::kInteger:
      e->kind = Expr::Kind::kInteger;
      e->int_value = Advance().int_value;
      return e;
    case Token::Kind::kNumber:
      e->kind = Expr::Kind::kNumber;
      e->number_value = Advance().number;
      return e;
    case Token::Kind::kDuration:
      e->kind = Expr::Kind::kDuration;
      e->text = token_.text;
      e->int_value = Advance().int_value;
      return e;
    case Token::Kind::kString:
      e->kind = Expr::Kind::kString;
      e->text = Advance().text;
      return e;
    case Token::Kind::kRegex:
      e->kind = Expr::Kind::kRegex;
      e->text = Advance().text;
      return e;
    case Token::Kind::kLParen: {
      Advance();
      e->kind = Expr::Kind::kParen;
      GNOMON_ASSIGN_OR_RETURN(ExprPtr inner, ParseExpr());
      e->args.push_back(std::move(inner));
      GNOMON_RETURN_IF_ERROR(ExpectKind(Token::Kind::kRParen, ")"));
      return e;
    }
    case Token::Kind::kOperator:
      if (token_.text == "*") {
        Advance();
        e->kind = Expr::Kind::kWildcard;
        if (AcceptKind(Token::Kind::kDoubleColon)) {
    GNOMON_ASSIGN_OR_RETURN(e->type_hint, ParseIdentifier("field or tag"));
  }
        return e;
      }
      break;
    case Token::Kind::kIdent:
      if (IsReserved(token_)) break;
      if (token_.Is("true") || token_.Is("false")) {
        e->kind = Expr::Kind::kBoolean;
        e->bool_value = Advance().Is("true");
        return e;
      }
      [[fallthrough]];
    case Token::Kind::kQuotedIdent: {
      bool quoted = token_.kind == Token::Kind::kQuotedIdent;
      std::string name = Advance().text;
      if (!quoted && token_.kind == Token::Kind::kLParen) return ParseCall(std::move(name));
      e->kind = Expr::Kind::kVarRef;
      e->text = std::move(name);
      if (AcceptKind(Token::Kind::kDoubleColon)) {
        GNOMON_ASSIGN_OR_RETURN(e->type_hint, ParseIdentifier("type"));
        for (char& c : e->type_hint) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      }
      return e;
    }
    default: break;
  }
  return Error("identifier, string, number, bool");
}

Result<ExprPtr> Parser::ParseCall(std::string name) {
  auto e = std::make_unique<Expr>();
  e->kind = Expr::Kind::kCall;
  for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  e->text = std::move(name);
  Advance();  // (
  if (AcceptKind(Token::Kind::kRParen)) return e;
  do {
    RegexHere();  // mean(/usage_.*/)
    GNOMON_ASSIGN_OR_RETURN(ExprPtr arg, ParseExpr());
    e->args.push_back(std::move(arg));
  } while (AcceptKind(Token::Kind::kComma));
  GNOMON_RETURN_IF_ERROR(ExpectKind(Token::Kind::kRParen, ")"));
  return e;
}

}  // namespace gnomon::query::influxql
