#include "src/query/influxql/influxql_ast.h"

#include <cstdio>

namespace gnomon::query::influxql {

ExprPtr Expr::Copy() const {
  auto e = std::make_unique<Expr>();
  e->kind = kind;
  e->text = text;
  e->type_hint = type_hint;
  e->int_value = int_value;
  e->number_value = number_value;
  e->bool_value = bool_value;
  for (const auto& a : args) e->args.push_back(a->Copy());
  return e;
}

std::string Expr::ToString() const {
  switch (kind) {
    case Kind::kVarRef: return type_hint.empty() ? text : text + "::" + type_hint;
    case Kind::kCall: {
      std::string s = text + "(";
      for (size_t i = 0; i < args.size(); ++i) s += (i ? ", " : "") + args[i]->ToString();
      return s + ")";
    }
    case Kind::kBinary: return args[0]->ToString() + " " + text + " " + args[1]->ToString();
    case Kind::kParen: return "(" + args[0]->ToString() + ")";
    case Kind::kInteger: return std::to_string(int_value);
    case Kind::kNumber: {
      char buf[32];
      std::snprintf(buf, sizeof buf, "%.17g", number_value);
      return buf;
    }
    case Kind::kString: return "'" + text + "'";
    case Kind::kBoolean: return bool_value ? "true" : "false";
    case Kind::kRegex: return "/" + text + "/";
    case Kind::kDuration: return text;
    case Kind::kWildcard: return type_hint.empty() ? "*" : "*::" + type_hint;
  }
  return "";
}

ExprPtr MakeVarRef(std::string name) {
  auto e = std::make_unique<Expr>();
  e->kind = Expr::Kind::kVarRef;
  e->text = std::move(name);
  return e;
}

ExprPtr MakeBinary(std::string op, ExprPtr left, ExprPtr right) {
  auto e = std::make_unique<Expr>();
  e->kind = Expr::Kind::kBinary;
  e->text = std::move(op);
  e->args.push_back(std::move(left));
  e->args.push_back(std::move(right));
  return e;
}

}  // namespace gnomon::query::influxql
