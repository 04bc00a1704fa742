// SELECT fields [INTO m] FROM sources [WHERE c] [GROUP BY dims [fill(x)]] [ORDER BY time [DESC]]
// [LIMIT n] [OFFSET n] [SLIMIT n] [SOFFSET n] [tz('zone')]
#include "src/base/time_zone.h"
#include "src/query/influxql/influxql_parser_internal.h"

namespace gnomon::query::influxql {

Result<std::string> Parser::ParseIdentifier(std::string_view what) {
  if (token_.kind != Token::Kind::kIdent && token_.kind != Token::Kind::kQuotedIdent &&
      token_.kind != Token::Kind::kString) {
    return Error(what);
  }
  return Advance().text;
}

Result<int64_t> Parser::ParseNonNegativeInteger(std::string_view what) {
  if (token_.kind != Token::Kind::kInteger) return Error(what);
  return Advance().int_value;
}

Result<std::unique_ptr<SelectStatement>> Parser::ParseSelect() {
  GNOMON_RETURN_IF_ERROR(Expect("select"));
  auto s = std::make_unique<SelectStatement>();
  GNOMON_RETURN_IF_ERROR(ParseFields(s.get()));
  if (Accept("into")) {
    GNOMON_ASSIGN_OR_RETURN(Source into, ParseSource(false));
    if (into.regex) return Status::InvalidArgument("INTO needs a measurement name, not a regex");
    s->into = std::move(into);
  }
  GNOMON_RETURN_IF_ERROR(Expect("from"));
  GNOMON_RETURN_IF_ERROR(ParseSources(&s->sources, true));
  for (const Source& src : s->sources) {
    if (src.measurement_backref) return Status::InvalidArgument(":MEASUREMENT names a measurement only in INTO");
  }
  if (Accept("where")) {
    GNOMON_ASSIGN_OR_RETURN(s->condition, ParseExpr());
  }
  if (Accept("group")) {
    GNOMON_RETURN_IF_ERROR(Expect("by"));
    GNOMON_RETURN_IF_ERROR(ParseDimensions(s.get()));
  }
  if (token_.Is("fill")) GNOMON_RETURN_IF_ERROR(ParseFill(s.get()));
  if (Accept("order")) {
    GNOMON_RETURN_IF_ERROR(Expect("by"));
    GNOMON_ASSIGN_OR_RETURN(std::string key, ParseIdentifier("identifier"));
    if (key != "time" && key != "TIME") return Status::InvalidArgument("only ORDER BY time supported at this time");
    if (Accept("desc")) s->order_desc = true;
    else Accept("asc");
  }
  if (Accept("limit")) {
    GNOMON_ASSIGN_OR_RETURN(s->limit, ParseNonNegativeInteger("integer"));
  }
  if (Accept("offset")) {
    GNOMON_ASSIGN_OR_RETURN(s->offset, ParseNonNegativeInteger("integer"));
  }
  if (Accept("slimit")) {
    GNOMON_ASSIGN_OR_RETURN(s->slimit, ParseNonNegativeInteger("integer"));
  }
  if (Accept("soffset")) {
    GNOMON_ASSIGN_OR_RETURN(s->soffset, ParseNonNegativeInteger("integer"));
  }
  if (Accept("tz")) {
    GNOMON_RETURN_IF_ERROR(ExpectKind(Token::Kind::kLParen, "("));
    if (token_.kind != Token::Kind::kString) return Error("string");
    s->tz = Advance().text;
    // As InfluxDB, a zone the system does not know fails the parse.
    GNOMON_RETURN_IF_ERROR(TimeZone::Load(s->tz).status());
    GNOMON_RETURN_IF_ERROR(ExpectKind(Token::Kind::kRParen, ")"));
  }
  return s;
}

Status Parser::ParseFields(SelectStatement* s) {
  do {
    Field f;
    RegexHere();  // SELECT /usage_.*/ FROM cpu
    GNOMON_ASSIGN_OR_RETURN(f.expr, ParseExpr());
    if (Accept("as")) {
    GNOMON_ASSIGN_OR_RETURN(f.alias, ParseIdentifier("identifier"));
  }
    s->fields.push_back(std::move(f));
  } while (AcceptKind(Token::Kind::kComma));
  return Status::OK();
}

Result<Source> Parser::ParseSource(bool allow_subquery) {
  Source src;
  if (token_.kind == Token::Kind::kLParen && allow_subquery) {
    Advance();
    GNOMON_ASSIGN_OR_RETURN(src.subquery, ParseSelect());
    GNOMON_RETURN_IF_ERROR(ExpectKind(Token::Kind::kRParen, ")"));
    return src;
  }
  if (RegexHere()) {
    src.regex = Advance().text;
    return src;
  }
  // name, db.name? No: InfluxQL reads one part as the measurement, two as rp.m, three as db.rp.m.
  std::vector<std::string> parts;
  auto backref = [&] { return token_.kind == Token::Kind::kIdent && token_.text == kMeasurementBackref; };
  src.measurement_backref = backref();
  GNOMON_ASSIGN_OR_RETURN(std::string first, ParseIdentifier("identifier"));
  parts.push_back(std::move(first));
  while (token_.kind == Token::Kind::kDot && parts.size() < 3) {
    Advance();
    if (token_.kind == Token::Kind::kDot) {  // db..m: the default retention policy
      parts.push_back("");
      continue;
    }
    if (parts.size() == 2 && RegexHere()) {
      src.regex = Advance().text;
      parts.push_back("");
      break;
    }
    src.measurement_backref = backref();
    GNOMON_ASSIGN_OR_RETURN(std::string p, ParseIdentifier("identifier"));
    parts.push_back(std::move(p));
  }
  if (parts.size() == 3) {
    src.database = parts[0];
    src.retention_policy = parts[1];
    src.measurement = parts[2];
  } else if (parts.size() == 2) {
    src.retention_policy = parts[0];
    src.measurement = parts[1];
  } else {
    src.measurement = parts[0];
  }
  return src;
}

Status Parser::ParseSources(std::vector<Source>* out, bool allow_subquery) {
  do {
    GNOMON_ASSIGN_OR_RETURN(Source s, ParseSource(allow_subquery));
    out->push_back(std::move(s));
  } while (AcceptKind(Token::Kind::kComma));
  return Status::OK();
}

Status Parser::ParseDimensions(SelectStatement* s) {
  do {
    Dimension d;
    if (token_.Is("time") && true) {
      size_t save_pos = pos_;
      Token save = token_;
      Advance();
      if (AcceptKind(Token::Kind::kLParen)) {
        d.kind = Dimension::Kind::kTime;
        if (token_.kind != Token::Kind::kDuration) return Error("duration");
        d.interval = Advance().int_value;
        if (d.interval <= 0) return Status::InvalidArgument("time dimension must have a positive duration");
        if (AcceptKind(Token::Kind::kComma)) {
          bool negative = AcceptOp("-");
          if (token_.kind != Token::Kind::kDuration && token_.kind != Token::Kind::kInteger) return Error("duration");
          d.offset = Advance().int_value * (negative ? -1 : 1);
        }
        GNOMON_RETURN_IF_ERROR(ExpectKind(Token::Kind::kRParen, ")"));
        s->dimensions.push_back(std::move(d));
        continue;
      }
      pos_ = save_pos;  // a tag named "time"
      token_ = std::move(save);
    }
    if (token_.kind == Token::Kind::kOperator && token_.text == "*") {
      Advance();
      d.kind = Dimension::Kind::kWildcard;
    } else if (RegexHere()) {
      d.kind = Dimension::Kind::kRegex;
      d.name = Advance().text;
    } else {
      d.kind = Dimension::Kind::kTag;
      GNOMON_ASSIGN_OR_RETURN(d.name, ParseIdentifier("identifier"));
      if (AcceptKind(Token::Kind::kDoubleColon)) GNOMON_RETURN_IF_ERROR(ParseIdentifier("type").status());
    }
    s->dimensions.push_back(std::move(d));
  } while (AcceptKind(Token::Kind::kComma));
  return Status::OK();
}

Status Parser::ParseFill(SelectStatement* s) {
  Advance();  // fill
  GNOMON_RETURN_IF_ERROR(ExpectKind(Token::Kind::kLParen, "("));
  if (Accept("null")) {
    s->fill = FillMode::kNull;
  } else if (Accept("none")) {
    s->fill = FillMode::kNone;
  } else if (Accept("previous")) {
    s->fill = FillMode::kPrevious;
  } else if (Accept("linear")) {
    s->fill = FillMode::kLinear;
  } else {
    bool negative = AcceptOp("-");
    auto v = std::make_unique<Expr>();
    if (token_.kind == Token::Kind::kInteger) {
      v->kind = Expr::Kind::kInteger;
      v->int_value = Advance().int_value * (negative ? -1 : 1);
    } else if (token_.kind == Token::Kind::kNumber) {
      v->kind = Expr::Kind::kNumber;
      v->number_value = Advance().number * (negative ? -1 : 1);
    } else {
      return Error("null, none, previous, linear, number");
    }
    s->fill = FillMode::kValue;
    s->fill_value = std::move(v);
  }
  return ExpectKind(Token::Kind::kRParen, ")");
}

}  // namespace gnomon::query::influxql
