// Statement-level InfluxQL grammar: splitting on ';', SHOW, CREATE, DROP, ALTER, DELETE, EXPLAIN.
#include "src/query/influxql/influxql_parser.h"

#include "src/query/influxql/influxql_parser_internal.h"

namespace gnomon::query::influxql {

Token Parser::Advance() {
  Token prev = std::move(token_);
  token_ = lexer_.Scan(&pos_);
  return prev;
}

bool Parser::Accept(std::string_view keyword) {
  if (!token_.Is(keyword)) return false;
  Advance();
  return true;
}

bool Parser::AcceptKind(Token::Kind kind) {
  if (token_.kind != kind) return false;
  Advance();
  return true;
}

bool Parser::AcceptOp(std::string_view op) {
  if (token_.kind != Token::Kind::kOperator || token_.text != op) return false;
  Advance();
  return true;
}

Status Parser::Error(std::string_view expected) const {
  if (token_.kind == Token::Kind::kIllegal) {
    return Status::InvalidArgument(token_.text + " at " + lexer_.Position(token_.pos));
  }
  return Status::InvalidArgument("found " + token_.Describe() + ", expected " + std::string(expected) +
                                 " at " + lexer_.Position(token_.pos));
}

Status Parser::Expect(std::string_view keyword) {
  if (Accept(keyword)) return Status::OK();
  std::string upper;
  for (char c : keyword) upper += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return Error(upper);
}

Status Parser::ExpectKind(Token::Kind kind, std::string_view what) {
  if (AcceptKind(kind)) return Status::OK();
  return Error(what);
}

bool Parser::RegexHere() {
  if (token_.kind == Token::Kind::kRegex) return true;
  if (token_.kind != Token::Kind::kOperator || token_.text != "/") return false;
  size_t p = token_.pos;
  Token re = lexer_.ScanRegex(&p);
  if (re.kind != Token::Kind::kRegex) return false;
  token_ = std::move(re);
  pos_ = p;
  return true;
}

Result<std::vector<Statement>> Parser::ParseAll() {
  std::vector<Statement> out;
  while (true) {
    while (AcceptKind(Token::Kind::kSemicolon)) {}
    if (token_.kind == Token::Kind::kEof) break;
    size_t start = token_.pos;
    GNOMON_ASSIGN_OR_RETURN(Statement st, ParseStatement());
    size_t end = token_.pos;
    std::string_view text = lexer_.text().substr(start, end - start);
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.remove_suffix(1);
    st.text = std::string(text);
    out.push_back(std::move(st));
    if (token_.kind == Token::Kind::kEof) break;
    if (token_.kind != Token::Kind::kSemicolon) return Error(";");
  }
  if (out.empty()) return Status::InvalidArgument("found EOF, expected SELECT, DELETE, SHOW, CREATE, DROP, EXPLAIN, ALTER at line 1, char 1");
  return out;
}

Result<Statement> Parser::ParseStatement() {
  if (token_.Is("select")) {
    Statement st;
    st.kind = Statement::Kind::kSelect;
    GNOMON_ASSIGN_OR_RETURN(st.select, ParseSelect());
    return st;
  }
  if (Accept("explain")) {
    Statement st;
    st.kind = Statement::Kind::kExplain;
    st.explain_analyze = Accept("analyze");
    if (!token_.Is("select")) return Error("SELECT");
    GNOMON_ASSIGN_OR_RETURN(st.select, ParseSelect());
    return st;
  }
  if (Accept("show")) return ParseShow();
  if (Accept("create")) return ParseCreate();
  if (Accept("drop")) return ParseDrop();
  if (Accept("alter")) return ParseAlter();
  if (Accept("delete")) return ParseDelete();
  return Error("SELECT, DELETE, SHOW, CREATE, DROP, EXPLAIN, ALTER");
}

Status Parser::ParseOnDatabase(Statement* st) {
  if (!Accept("on")) return Status::OK();
  GNOMON_ASSIGN_OR_RETURN(st->database, ParseIdentifier("identifier"));
  return Status::OK();
}

Status Parser::ParseLimitOffset(int64_t* limit, int64_t* offset) {
  if (Accept("limit")) {
    GNOMON_ASSIGN_OR_RETURN(*limit, ParseNonNegativeInteger("integer"));
  }
  if (Accept("offset")) {
    GNOMON_ASSIGN_OR_RETURN(*offset, ParseNonNegativeInteger("integer"));
  }
  return Status::OK();
}

// [ON db] was read; reads [FROM sources] [WITH KEY ...] [WHERE cond] [LIMIT n] [OFFSET n].
Status Parser::ParseShowTail(Statement* st, bool with_from) {
  if (with_from && Accept("from")) GNOMON_RETURN_IF_ERROR(ParseSources(&st->sources, false));
  if (st->kind == Statement::Kind::kShowTagValues) {
    GNOMON_RETURN_IF_ERROR(Expect("with"));
    GNOMON_RETURN_IF_ERROR(Expect("key"));
    if (Accept("in")) {
      st->with_op = "IN";
      GNOMON_RETURN_IF_ERROR(ExpectKind(Token::Kind::kLParen, "("));
      do {
        GNOMON_ASSIGN_OR_RETURN(std::string k, ParseIdentifier("identifier"));
        st->with_values.push_back(std::move(k));
      } while (AcceptKind(Token::Kind::kComma));
      GNOMON_RETURN_IF_ERROR(ExpectKind(Token::Kind::kRParen, ")"));
    } else {
      if (token_.kind != Token::Kind::kOperator) return Error("=, !=, =~, !~, IN");
      st->with_op = Advance().text;
      if (st->with_op == "=~" || st->with_op == "!~") {
        if (!RegexHere()) return Error("regex");
        st->with_values.push_back(Advance().text);
      } else if (st->with_op == "=" || st->with_op == "!=" || st->with_op == "<>") {
        if (st->with_op == "<>") st->with_op = "!=";
        GNOMON_ASSIGN_OR_RETURN(std::string k, ParseIdentifier("identifier"));
        st->with_values.push_back(std::move(k));
      } else {
        return Error("=, !=, =~, !~, IN");
      }
    }
  }
  if (Accept("where")) {
    GNOMON_ASSIGN_OR_RETURN(st->condition, ParseExpr());
  }
  return ParseLimitOffset(&st->limit, &st->offset);
}

Result<Statement> Parser::ParseShow() {
  Statement st;
  using K = Statement::Kind;
  if (Accept("databases")) {
    st.kind = K::kShowDatabases;
    return st;
  }
  if (Accept("measurements")) {
    st.kind = K::kShowMeasurements;
    GNOMON_RETURN_IF_ERROR(ParseOnDatabase(&st));
    if (Accept("with")) {
      GNOMON_RETURN_IF_ERROR(Expect("measurement"));
      if (AcceptOp("=~")) {
        if (!RegexHere()) return Error("regex");
        st.with_op = "=~";
        st.with_values.push_back(Advance().text);
      } else if (AcceptOp("=")) {
        st.with_op = "=";
        GNOMON_ASSIGN_OR_RETURN(std::string m, ParseIdentifier("identifier"));
        st.with_values.push_back(std::move(m));
      } else {
        return Error("=, =~");
      }
    }
    GNOMON_RETURN_IF_ERROR(ParseShowTail(&st, false));
    return st;
  }
  if (Accept("measurement")) {
    GNOMON_RETURN_IF_ERROR(Expect("cardinality"));
    st.kind = K::kShowMeasurementCardinality;
    GNOMON_RETURN_IF_ERROR(ParseOnDatabase(&st));
    GNOMON_RETURN_IF_ERROR(ParseShowTail(&st, true));
    return st;
  }
  if (Accept("tag")) {
    if (Accept("keys")) st.kind = K::kShowTagKeys;
    else if (Accept("values")) st.kind = K::kShowTagValues;
    else return Error("KEYS, VALUES");
    GNOMON_RETURN_IF_ERROR(ParseOnDatabase(&st));
    GNOMON_RETURN_IF_ERROR(ParseShowTail(&st, true));
    return st;
  }
  if (Accept("field")) {
    GNOMON_RETURN_IF_ERROR(Expect("keys"));
    st.kind = K::kShowFieldKeys;
    GNOMON_RETURN_IF_ERROR(ParseOnDatabase(&st));
    GNOMON_RETURN_IF_ERROR(ParseShowTail(&st, true));
    return st;
  }
  if (Accept("series")) {
    st.kind = Accept("cardinality") ? K::kShowSeriesCardinality : K::kShowSeries;
    GNOMON_RETURN_IF_ERROR(ParseOnDatabase(&st));
    GNOMON_RETURN_IF_ERROR(ParseShowTail(&st, true));
    return st;
  }
  if (Accept("retention")) {
    GNOMON_RETURN_IF_ERROR(Expect("policies"));
    st.kind = K::kShowRetentionPolicies;
    GNOMON_RETURN_IF_ERROR(ParseOnDatabase(&st));
    return st;
  }
  return Error("DATABASES, MEASUREMENTS, MEASUREMENT, TAG, FIELD, SERIES, RETENTION");
}

// [DURATION d] [REPLICATION n] [SHARD DURATION d] [DEFAULT], in any order.
Status Parser::ParseRetentionPolicyOptions(Statement* st, bool create) {
  bool any = false;
  while (true) {
    if (Accept("duration")) {
      if (Accept("inf")) {
        st->duration_ns = 0;
      } else {
        if (token_.kind != Token::Kind::kDuration) return Error("duration");
        st->duration_ns = Advance().int_value;
      }
    } else if (Accept("replication")) {
      GNOMON_ASSIGN_OR_RETURN(int64_t n, ParseNonNegativeInteger("integer"));
      if (n < 1) return Status::InvalidArgument("invalid value " + std::to_string(n) + ": must be 1 <= n <= 2147483647");
      st->replication = n;
    } else if (Accept("shard")) {
      GNOMON_RETURN_IF_ERROR(Expect("duration"));
      if (token_.kind != Token::Kind::kDuration && !token_.Is("inf")) return Error("duration");
      Advance();
    } else if (Accept("default")) {
      st->make_default = true;
    } else {
      break;
    }
    any = true;
  }
  if (!any && !create) return Error("DURATION, REPLICATION, SHARD, DEFAULT");
  if (create && st->duration_ns < 0) return Error("DURATION");
  return Status::OK();
}

Result<Statement> Parser::ParseCreate() {
  Statement st;
  if (Accept("database")) {
    st.kind = Statement::Kind::kCreateDatabase;
    GNOMON_ASSIGN_OR_RETURN(st.database, ParseIdentifier("identifier"));
    if (Accept("with")) {
      bool any = false;
      while (true) {
        if (Accept("duration")) {
          if (Accept("inf")) st.duration_ns = 0;
          else if (token_.kind == Token::Kind::kDuration) st.duration_ns = Advance().int_value;
          else return Error("duration");
        } else if (Accept("replication")) {
          GNOMON_ASSIGN_OR_RETURN(st.replication, ParseNonNegativeInteger("integer"));
        } else if (Accept("shard")) {
          GNOMON_RETURN_IF_ERROR(Expect("duration"));
          if (token_.kind != Token::Kind::kDuration) return Error("duration");
          Advance();
        } else if (Accept("name")) {
          GNOMON_ASSIGN_OR_RETURN(st.name, ParseIdentifier("identifier"));
        } else {
          break;
        }
        any = true;
      }
      if (!any) return Error("DURATION, NAME, REPLICATION, SHARD");
    }
    return st;
  }
  if (Accept("retention")) {
    GNOMON_RETURN_IF_ERROR(Expect("policy"));
    st.kind = Statement::Kind::kCreateRetentionPolicy;
    GNOMON_ASSIGN_OR_RETURN(st.name, ParseIdentifier("identifier"));
    GNOMON_RETURN_IF_ERROR(Expect("on"));
    GNOMON_ASSIGN_OR_RETURN(st.database, ParseIdentifier("identifier"));
    GNOMON_RETURN_IF_ERROR(ParseRetentionPolicyOptions(&st, true));
    return st;
  }
  return Error("DATABASE, RETENTION");
}

Result<Statement> Parser::ParseDrop() {
  Statement st;
  if (Accept("database")) {
    st.kind = Statement::Kind::kDropDatabase;
    GNOMON_ASSIGN_OR_RETURN(st.database, ParseIdentifier("identifier"));
    return st;
  }
  if (Accept("measurement")) {
    st.kind = Statement::Kind::kDropMeasurement;
    GNOMON_ASSIGN_OR_RETURN(st.name, ParseIdentifier("identifier"));
    return st;
  }
  if (Accept("series")) {
    st.kind = Statement::Kind::kDropSeries;
    if (Accept("from")) GNOMON_RETURN_IF_ERROR(ParseSources(&st.sources, false));
    if (Accept("where")) {
    GNOMON_ASSIGN_OR_RETURN(st.condition, ParseExpr());
  }
    if (st.sources.empty() && st.condition == nullptr) return Error("FROM or WHERE");
    return st;
  }
  if (Accept("retention")) {
    GNOMON_RETURN_IF_ERROR(Expect("policy"));
    st.kind = Statement::Kind::kDropRetentionPolicy;
    GNOMON_ASSIGN_OR_RETURN(st.name, ParseIdentifier("identifier"));
    GNOMON_RETURN_IF_ERROR(Expect("on"));
    GNOMON_ASSIGN_OR_RETURN(st.database, ParseIdentifier("identifier"));
    return st;
  }
  return Error("DATABASE, MEASUREMENT, SERIES, RETENTION");
}

Result<Statement> Parser::ParseAlter() {
  Statement st;
  GNOMON_RETURN_IF_ERROR(Expect("retention"));
  GNOMON_RETURN_IF_ERROR(Expect("policy"));
  st.kind = Statement::Kind::kAlterRetentionPolicy;
  GNOMON_ASSIGN_OR_RETURN(st.name, ParseIdentifier("identifier"));
  GNOMON_RETURN_IF_ERROR(Expect("on"));
  GNOMON_ASSIGN_OR_RETURN(st.database, ParseIdentifier("identifier"));
  GNOMON_RETURN_IF_ERROR(ParseRetentionPolicyOptions(&st, false));
  return st;
}

Result<Statement> Parser::ParseDelete() {
  Statement st;
  st.kind = Statement::Kind::kDelete;
  if (Accept("from")) GNOMON_RETURN_IF_ERROR(ParseSources(&st.sources, false));
  if (Accept("where")) {
    GNOMON_ASSIGN_OR_RETURN(st.condition, ParseExpr());
  }
  if (st.sources.empty() && st.condition == nullptr) return Error("FROM or WHERE");
  return st;
}

Result<std::vector<Statement>> ParseQuery(std::string_view text, const BoundParams* params) {
  Parser parser(text, params);
  return parser.ParseAll();
}

}  // namespace gnomon::query::influxql
