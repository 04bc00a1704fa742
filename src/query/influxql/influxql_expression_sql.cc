// InfluxQL expressions -> SQL text, the time bounds of a WHERE clause, and column names.
#include <algorithm>
#include <map>
#include <set>

#include "src/base/time_util.h"
#include "src/query/influxql/influxql_compiler_internal.h"
#include "src/query/influxql/influxql_shape_parts.h"
#include "src/query/parser/ast_expression.h"
#include "src/query/parser/interval.h"
#include "src/query/parser/time_literal.h"

namespace gnomon::query::influxql {

bool Relation::IsTag(const std::string& n) const { return std::binary_search(tags.begin(), tags.end(), n); }

const ValueType* Relation::FieldType(const std::string& n) const {
  for (const auto& [name, type] : fields) {
    if (name == n) return &type;
  }
  return nullptr;
}

std::string Quote(const std::string& identifier) { return QuoteIdentifier(identifier); }
std::string SqlString(const std::string& value) { return QuoteString(value); }
std::string SqlTimestamp(int64_t ns) { return "TIMESTAMP '" + FormatRfc3339(ns) + "'"; }
std::string SqlInterval(int64_t ns) { return "INTERVAL '" + FormatInterval(ns) + "'"; }

Result<std::optional<int64_t>> EvalTime(const Expr& e, int64_t now_ns) {
  switch (e.kind) {
    case Expr::Kind::kString: {
      auto t = ParseTimeLiteral(e.text);
      if (!t.ok()) return Status::InvalidArgument("invalid operation: time and *influxql.StringLiteral are not compatible");
      return std::optional<int64_t>(*t);
    }
    case Expr::Kind::kInteger:
    case Expr::Kind::kDuration: return std::optional<int64_t>(e.int_value);
    case Expr::Kind::kNumber: return std::optional<int64_t>(static_cast<int64_t>(e.number_value));
    case Expr::Kind::kParen: return EvalTime(*e.args[0], now_ns);
    case Expr::Kind::kCall:
      if (e.text == "now" && e.args.empty()) return std::optional<int64_t>(now_ns);
      return std::optional<int64_t>();
    case Expr::Kind::kBinary: {
      if (e.text != "+" && e.text != "-") return std::optional<int64_t>();
      GNOMON_ASSIGN_OR_RETURN(auto l, EvalTime(*e.args[0], now_ns));
      GNOMON_ASSIGN_OR_RETURN(auto r, EvalTime(*e.args[1], now_ns));
      if (!l || !r) return std::optional<int64_t>();
      int64_t v;
      bool overflow = e.text == "+" ? __builtin_add_overflow(*l, *r, &v) : __builtin_sub_overflow(*l, *r, &v);
      if (overflow) return Status::InvalidArgument("time overflows: " + e.ToString());
      return std::optional<int64_t>(v);
    }
    default: return std::optional<int64_t>();
  }
}

namespace {

bool IsTimeRef(const Expr& e) { return e.kind == Expr::Kind::kVarRef && (e.text == "time" || e.text == "TIME"); }
bool IsComparison(const std::string& op) {
  return op == "=" || op == "!=" || op == "<" || op == "<=" || op == ">" || op == ">=";
}
std::string Mirror(const std::string& op) {
  if (op == "<") return ">";
  if (op == "<=") return ">=";
  if (op == ">") return "<";
  if (op == ">=") return "<=";
  return op;
}
std::string SqlOp(const std::string& op) { return op == "!=" ? "<>" : op; }

}  // namespace

Status ExtractTimeRange(const Expr* condition, int64_t now_ns, TimeRange* range) {
  if (condition == nullptr) return Status::OK();
  const Expr& e = Unparen(*condition);
  if (e.kind != Expr::Kind::kBinary) return Status::OK();
  if (e.text == "AND") {
    GNOMON_RETURN_IF_ERROR(ExtractTimeRange(e.args[0].get(), now_ns, range));
    return ExtractTimeRange(e.args[1].get(), now_ns, range);
  }
  if (!IsComparison(e.text)) return Status::OK();
  std::string op = e.text;
  const Expr* other;
  if (IsTimeRef(Unparen(*e.args[0]))) {
    other = e.args[1].get();
  } else if (IsTimeRef(Unparen(*e.args[1]))) {
    other = e.args[0].get();
    op = Mirror(op);
  } else {
    return Status::OK();
  }
  GNOMON_ASSIGN_OR_RETURN(auto t, EvalTime(*other, now_ns));
  if (!t) return Status::OK();
  auto lower = [&](int64_t v) { range->lower = range->lower ? std::max(*range->lower, v) : v; };
  auto upper = [&](int64_t v) { range->upper = range->upper ? std::min(*range->upper, v) : v; };
  if (op == ">") lower(*t + 1);
  else if (op == ">=") lower(*t);
  else if (op == "<") upper(*t - 1);
  else if (op == "<=") upper(*t);
  else if (op == "=") { lower(*t); upper(*t); }
  return Status::OK();
}

namespace {

Result<std::string> TagComparison(const std::string& tag, const std::string& op, const std::string& value) {
  std::string col = Quote(tag);
  if (op == "=") {
    if (value.empty()) return "(" + col + " IS NULL OR " + col + " = '')";
    return col + " = " + SqlString(value);
  }
  if (op == "!=") {
    if (value.empty()) return "(" + col + " IS NOT NULL AND " + col + " <> '')";
    return "(" + col + " IS NULL OR " + col + " <> " + SqlString(value) + ")";
  }
  return "coalesce(" + col + ", '') " + op + " " + SqlString(value);
}

// The operands of the chain of `op` at `e` (a op b op c, however it associates), in order.
void CollectChain(const Expr& e, const std::string& op, std::vector<const Expr*>* out) {
  if (e.kind == Expr::Kind::kBinary && e.text == op) {
    CollectChain(*e.args[0], op, out);
    CollectChain(*e.args[1], op, out);
  } else {
    out->push_back(&e);
  }
}

}  // namespace

Result<std::string> ConditionSql(const Expr& e, const Relation& rel, int64_t now_ns) {
  switch (e.kind) {
    case Expr::Kind::kParen: {
      GNOMON_ASSIGN_OR_RETURN(std::string inner, ConditionSql(*e.args[0], rel, now_ns));
      return "(" + inner + ")";
    }
    case Expr::Kind::kBoolean: return std::string(e.bool_value ? "TRUE" : "FALSE");
    case Expr::Kind::kBinary: break;
    default: return ValueSql(e, rel, [](const Expr& call) -> Result<std::string> {
      return Status::InvalidArgument("invalid function call in condition: " + call.ToString());
    });
  }
  const std::string& op = e.text;
  if (op == "AND" || op == "OR") {
    // A chain of one operator (Grafana's `host = 'a' OR host = 'b' OR ...` over hundreds of
    // values) becomes one flat SQL chain: parenthesising each pair would nest as deep as the chain
    // is long, past the SQL parser's nesting limit.
    std::vector<const Expr*> operands;
    CollectChain(e, op, &operands);
    std::string sql = "(";
    for (size_t i = 0; i < operands.size(); ++i) {
      GNOMON_ASSIGN_OR_RETURN(std::string part, ConditionSql(*operands[i], rel, now_ns));
      sql += (i ? " " + op + " " : "") + part;
    }
    return sql + ")";
  }
  const Expr& left = Unparen(*e.args[0]);
  const Expr& right = Unparen(*e.args[1]);
  if (op == "=~" || op == "!~") {
    if (right.kind != Expr::Kind::kRegex) return Status::InvalidArgument("expected regex: " + e.ToString());
    std::string subject;
    if (left.kind == Expr::Kind::kVarRef && rel.IsTag(left.text)) {
      subject = "coalesce(" + Quote(left.text) + ", '')";
    } else if (left.kind == Expr::Kind::kVarRef && rel.FieldType(left.text) != nullptr) {
      subject = Quote(left.text);
    } else if (left.kind == Expr::Kind::kVarRef) {
      subject = "''";  // a missing tag reads as the empty string
    } else {
      return Status::InvalidArgument("invalid regex comparison: " + e.ToString());
    }
    std::string test = "regexp_like(" + subject + ", " + SqlString(right.text) + ")";
    return op == "=~" ? test : "NOT " + test;
  }
  if (IsComparison(op)) {
    if (IsTimeRef(left) || IsTimeRef(right)) {
      const Expr& other = IsTimeRef(left) ? right : left;
      GNOMON_ASSIGN_OR_RETURN(auto t, EvalTime(other, now_ns));
      if (!t) return Status::InvalidArgument("invalid time comparison: " + e.ToString());
      // Over a subquery the bounds narrow the subquery's own range (passed down as InfluxDB
      // does); its rows are not filtered again, so a bucket starting before the range stays.
      if (rel.subquery) return std::string("TRUE");
      std::string o = IsTimeRef(left) ? op : Mirror(op);
      if (o == "!=") return "time <> " + SqlTimestamp(*t);
      return "time " + o + " " + SqlTimestamp(*t);
    }
    const bool tag_left = left.kind == Expr::Kind::kVarRef && right.kind == Expr::Kind::kString;
    const bool tag_right = right.kind == Expr::Kind::kVarRef && left.kind == Expr::Kind::kString;
    if (tag_left || tag_right) {
      const std::string& name = tag_left ? left.text : right.text;
      const std::string& value = tag_left ? right.text : left.text;
      std::string o = tag_left ? op : Mirror(op);
      if (rel.IsTag(name)) return TagComparison(name, o, value);
      if (rel.FieldType(name) == nullptr) {  // a tag no point has reads as ''
        int c = std::string().compare(value);
        bool r = o == "=" ? c == 0 : o == "!=" ? c != 0 : o == "<" ? c < 0 : o == "<=" ? c <= 0 : o == ">" ? c > 0 : c >= 0;
        return std::string(r ? "TRUE" : "FALSE");
      }
    }
  }
  auto no_calls = [](const Expr& call) -> Result<std::string> {
    return Status::InvalidArgument("invalid function call in condition: " + call.ToString());
  };
  if (!IsComparison(op)) return ValueSql(e, rel, no_calls);  // arithmetic, or a refused operator
  GNOMON_ASSIGN_OR_RETURN(std::string l, ValueSql(*e.args[0], rel, no_calls));
  GNOMON_ASSIGN_OR_RETURN(std::string r, ValueSql(*e.args[1], rel, no_calls));
  return "(" + l + " " + SqlOp(op) + " " + r + ")";
}

Result<std::string> ValueSql(const Expr& e, const Relation& rel,
                             const std::function<Result<std::string>(const Expr& call)>& call_sql) {
  switch (e.kind) {
    case Expr::Kind::kVarRef:
      if (e.text == "time") return std::string("time");
      if (rel.FieldType(e.text) != nullptr) return Quote(e.text);
      if (rel.IsTag(e.text)) return rel.subquery ? "coalesce(" + Quote(e.text) + ", '')" : Quote(e.text);
      return std::string("NULL");
    case Expr::Kind::kInteger: return std::to_string(e.int_value);
    case Expr::Kind::kNumber: return e.ToString();
    case Expr::Kind::kString: return SqlString(e.text);
    case Expr::Kind::kBoolean: return std::string(e.bool_value ? "TRUE" : "FALSE");
    case Expr::Kind::kDuration: return std::to_string(e.int_value);
    case Expr::Kind::kParen: {
      GNOMON_ASSIGN_OR_RETURN(std::string inner, ValueSql(*e.args[0], rel, call_sql));
      return "(" + inner + ")";
    }
    case Expr::Kind::kCall: return call_sql(e);
    case Expr::Kind::kBinary: {
      const std::string& op = e.text;
      if (op != "+" && op != "-" && op != "*" && op != "/" && op != "%") {
        return Status::InvalidArgument("unsupported operator " + op + " in " + e.ToString());
      }
      GNOMON_ASSIGN_OR_RETURN(std::string l, ValueSql(*e.args[0], rel, call_sql));
      GNOMON_ASSIGN_OR_RETURN(std::string r, ValueSql(*e.args[1], rel, call_sql));
      // InfluxQL divides in floating point, integers included, and x / 0 is 0 (null / 0 stays null).
      if (op == "/") return "(CASE WHEN " + r + " = 0 AND " + l + " IS NOT NULL THEN 0.0 ELSE CAST(" + l + " AS DOUBLE) / " + r + " END)";
      return "(" + l + " " + op + " " + r + ")";
    }
    case Expr::Kind::kRegex:
    case Expr::Kind::kWildcard: break;
  }
  return Status::InvalidArgument("unsupported expression: " + e.ToString());
}

bool IsAggregateName(const std::string& fn) {
  static const std::set<std::string> kNames = {"count", "mean", "sum", "min", "max", "first", "last",
                                               "spread", "stddev", "median", "mode", "percentile",
                                               "distinct", "integral", "sample", "top", "bottom"};
  return kNames.count(fn) > 0;
}
bool IsSelectorName(const std::string& fn) {
  return fn == "first" || fn == "last" || fn == "max" || fn == "min" || fn == "percentile";
}
bool IsTransformName(const std::string& fn) {
  static const std::set<std::string> kNames = {"difference", "non_negative_difference", "derivative",
                                               "non_negative_derivative", "elapsed", "moving_average",
                                               "cumulative_sum"};
  return kNames.count(fn) > 0;
}
bool IsMathName(const std::string& fn) {
  static const std::set<std::string> kNames = {"abs", "floor", "ceil", "round", "sqrt", "ln", "log10", "exp",
                                               "pow", "sin", "cos", "tan", "log2"};
  return kNames.count(fn) > 0;
}

bool HasAggregate(const Expr& e) {
  if (e.kind == Expr::Kind::kCall && IsAggregateName(e.text)) return true;
  for (const auto& a : e.args) {
    if (HasAggregate(*a)) return true;
  }
  return false;
}

namespace {
void CollectNames(const Expr& e, std::vector<std::string>* names) {
  switch (e.kind) {
    case Expr::Kind::kCall: names->push_back(e.text); return;
    case Expr::Kind::kVarRef: names->push_back(e.text); return;
    case Expr::Kind::kBinary:
    case Expr::Kind::kParen:
      for (const auto& a : e.args) CollectNames(*a, names);
      return;
    default: return;
  }
}
}  // namespace

std::string FieldName(const Expr& e) {
  const Expr& u = Unparen(e);
  if (u.kind == Expr::Kind::kCall || u.kind == Expr::Kind::kVarRef) return u.text;
  std::vector<std::string> names;
  CollectNames(u, &names);
  std::string out;
  for (size_t i = 0; i < names.size(); ++i) out += (i ? "_" : "") + names[i];
  return out;
}

std::vector<std::string> ColumnNames(const std::vector<Field>& fields) {
  std::vector<std::string> out(fields.size());
  std::map<std::string, int> seen;
  for (size_t i = 0; i < fields.size(); ++i) {
    if (!fields[i].alias.empty()) {
      out[i] = fields[i].alias;
      seen[fields[i].alias] = 1;
    }
  }
  for (size_t i = 0; i < fields.size(); ++i) {
    if (!out[i].empty()) continue;
    std::string name = FieldName(*fields[i].expr);
    auto it = seen.find(name);
    if (it != seen.end()) {
      int count = it->second;
      while (true) {
        std::string candidate = name + "_" + std::to_string(count);
        if (seen.find(candidate) == seen.end()) {
          it->second = count + 1;
          name = candidate;
          break;
        }
        ++count;
      }
    }
    seen[name]++;
    out[i] = name;
  }
  return out;
}

}  // namespace gnomon::query::influxql
