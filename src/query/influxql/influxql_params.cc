#include "src/query/influxql/influxql_params.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>

#include "src/base/json_value.h"

namespace gnomon::query::influxql {
namespace {

Token Of(Token::Kind kind, std::string text) {
  Token t;
  t.kind = kind;
  t.text = std::move(text);
  return t;
}

// A JSON number: an integer token when written as one and in range, a number token otherwise.
Result<Token> NumberToken(const JsonValue& v, bool integer_only) {
  const std::string& text = v.number_text();
  bool integral = text.find_first_of(".eE") == std::string::npos;
  if (integral) {
    errno = 0;
    long long i = std::strtoll(text.c_str(), nullptr, 10);
    if (errno != ERANGE) {
      Token t = Of(Token::Kind::kInteger, text);
      t.int_value = i;
      return t;
    }
  }
  if (integer_only) return Status::InvalidArgument("not an integer: " + text);
  if (!std::isfinite(v.number())) return Status::InvalidArgument("number out of range: " + text);
  Token t = Of(Token::Kind::kNumber, text);
  t.number = v.number();
  return t;
}

Result<Token> DurationToken(const JsonValue& v) {
  Token t = Of(Token::Kind::kDuration, "");
  if (v.is_number()) {
    GNOMON_ASSIGN_OR_RETURN(Token n, NumberToken(v, /*integer_only=*/true));
    t.int_value = n.int_value;
    t.text = n.text + "ns";
    return t;
  }
  if (!v.is_string()) return Status::InvalidArgument("a duration is a string such as \"10m\" or nanoseconds");
  const std::string& raw = v.string();
  auto ns = ParseDurationLiteral(raw);
  if (!ns.ok()) return Status::InvalidArgument("invalid duration \"" + raw + "\"");
  t.int_value = *ns;
  t.text = raw;
  return t;
}

Result<Token> BoolToken(bool b) { return Of(Token::Kind::kIdent, b ? "true" : "false"); }

// {"kind": value}: the explicitly typed forms.
Result<Token> TypedToken(const JsonValue& v) {
  if (v.object().size() != 1) return Status::InvalidArgument("a typed parameter is an object with one member");
  // Named references, not a structured binding: clang 14 (the fuzz build) cannot capture those.
  const std::string& kind = v.object().begin()->first;
  const JsonValue& value = v.object().begin()->second;
  auto want_string = [&](Token::Kind k) -> Result<Token> {
    if (!value.is_string()) return Status::InvalidArgument("\"" + kind + "\" takes a string");
    return Of(k, value.string());
  };
  if (kind == "identifier") return want_string(Token::Kind::kQuotedIdent);
  if (kind == "string") return want_string(Token::Kind::kString);
  if (kind == "regex") return want_string(Token::Kind::kRegex);
  if (kind == "duration") return DurationToken(value);
  if (kind == "integer" || kind == "number") {
    if (!value.is_number()) return Status::InvalidArgument("\"" + kind + "\" takes a number");
    GNOMON_ASSIGN_OR_RETURN(Token t, NumberToken(value, kind == "integer"));
    if (kind == "number" && t.kind == Token::Kind::kInteger) {
      t.kind = Token::Kind::kNumber;
      t.number = static_cast<double>(t.int_value);
    }
    return t;
  }
  if (kind == "boolean") {
    if (value.kind() != JsonValue::Kind::kBool) return Status::InvalidArgument("\"boolean\" takes true or false");
    return BoolToken(value.bool_value());
  }
  return Status::InvalidArgument("unknown parameter type \"" + kind +
                                 "\" (identifier, string, integer, number, boolean, duration, regex)");
}

Result<Token> TokenOf(const JsonValue& v) {
  switch (v.kind()) {
    case JsonValue::Kind::kString: return Of(Token::Kind::kString, v.string());
    case JsonValue::Kind::kNumber: return NumberToken(v, /*integer_only=*/false);
    case JsonValue::Kind::kBool: return BoolToken(v.bool_value());
    case JsonValue::Kind::kObject: return TypedToken(v);
    case JsonValue::Kind::kNull: return Status::InvalidArgument("null binds to nothing");
    case JsonValue::Kind::kArray: return Status::InvalidArgument("an array binds to nothing");
  }
  return Status::InvalidArgument("unsupported value");
}

}  // namespace

Result<BoundParams> ParseBoundParams(std::string_view json) {
  auto doc = JsonValue::Parse(json);
  if (!doc.ok()) return Status::InvalidArgument("error parsing query parameters: " + doc.status().message());
  if (!doc->is_object()) return Status::InvalidArgument("error parsing query parameters: not a JSON object");
  BoundParams out;
  for (const auto& [name, value] : doc->object()) {
    auto t = TokenOf(value);
    if (!t.ok()) return Status::InvalidArgument("error parsing query parameters: $" + name + ": " + t.status().message());
    out.emplace(name, std::move(*t));
  }
  return out;
}

}  // namespace gnomon::query::influxql
