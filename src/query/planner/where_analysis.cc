#include "src/query/planner/where_analysis.h"

#include <algorithm>
#include <set>

#include "src/base/time_util.h"
#include "src/query/execution/expression_executor.h"
#include "src/query/parser/time_literal.h"
#include "src/query/planner/binder.h"

namespace gnomon::query {
namespace {

void Flatten(const ParsedExpression* e, std::vector<const ParsedExpression*>* out) {
  if (e->expression_class == ExpressionClass::kConjunction &&
      e->As<ConjunctionExpression>().op == ConjunctionOp::kAnd) {
    for (const auto& c : e->As<ConjunctionExpression>().children) Flatten(c.get(), out);
    return;
  }
  out->push_back(e);
}

bool IsTimeColumn(const ParsedExpression& e) {
  return e.expression_class == ExpressionClass::kColumnRef &&
         e.As<ColumnRefExpression>().column_name() == "time";
}

// A constant timestamp: a time literal string, an integer (ns), or arithmetic over now() and
// intervals.
std::optional<int64_t> ConstantTime(const ParsedExpression& e, int64_t now_ns) {
  BindContext ctx;
  ctx.now_ns = now_ns;
  auto bound = Bind(e, ctx);
  if (!bound.ok()) return std::nullopt;
  BoundExpr* b = bound->get();
  if (b->IsConstant() && b->constant.type == ValueType::kString) {
    auto t = ParseTimeLiteral(b->constant.s);
    if (!t.ok()) return std::nullopt;
    return *t;
  }
  auto v = EvalConstant(*b);
  if (!v.ok()) return std::nullopt;
  if (v->type == ValueType::kTimestamp || v->type == ValueType::kInt64) return v->i;
  return std::nullopt;
}

std::optional<std::string> ConstantString(const ParsedExpression& e) {
  if (e.expression_class != ExpressionClass::kConstant) return std::nullopt;
  const auto& c = e.As<ConstantExpression>();
  if (c.kind != ConstantKind::kString) return std::nullopt;
  return c.string_value;
}

std::optional<std::string> TagName(const ParsedExpression& e, const std::vector<std::string>& tags) {
  if (e.expression_class != ExpressionClass::kColumnRef) return std::nullopt;
  const std::string& n = e.As<ColumnRefExpression>().column_name();
  if (std::find(tags.begin(), tags.end(), n) == tags.end()) return std::nullopt;
  return n;
}

// tag = 'v', 'v' = tag, tag IN ('a', 'b'), or an OR of those over one tag: the (tag, values).
bool TagPredicate(const ParsedExpression& e, const std::vector<std::string>& tags, std::string* tag,
                  std::vector<std::string>* values) {
  switch (e.expression_class) {
    case ExpressionClass::kBinary: {
      const auto& b = e.As<BinaryExpression>();
      if (b.op != BinaryOp::kEqual) return false;
      auto t = TagName(*b.left, tags);
      auto v = ConstantString(*b.right);
      if (!t || !v) {
        t = TagName(*b.right, tags);
        v = ConstantString(*b.left);
      }
      if (!t || !v) return false;
      if (!tag->empty() && *tag != *t) return false;
      *tag = *t;
      values->push_back(*v);
      return true;
    }
    case ExpressionClass::kIn: {
      const auto& in = e.As<InExpression>();
      if (in.negated || in.subquery) return false;
      auto t = TagName(*in.operand, tags);
      if (!t || (!tag->empty() && *tag != *t)) return false;
      for (const auto& item : in.list) {
        auto v = ConstantString(*item);
        if (!v) return false;
        values->push_back(*v);
      }
      *tag = *t;
      return true;
    }
    case ExpressionClass::kConjunction: {
      const auto& c = e.As<ConjunctionExpression>();
      if (c.op != ConjunctionOp::kOr) return false;
      for (const auto& child : c.children) {
        if (!TagPredicate(*child, tags, tag, values)) return false;
      }
      return true;
    }
    default: return false;
  }
}

}  // namespace

Result<WherePushdown> AnalyzeWhere(const ParsedExpression* where, const storage::TableReader& reader,
                                   const std::vector<std::string>& tag_keys, int64_t now_ns) {
  WherePushdown out;
  if (where == nullptr) return out;
  std::vector<const ParsedExpression*> conjuncts;
  Flatten(where, &conjuncts);
  std::vector<std::string> notes;
  for (const ParsedExpression* c : conjuncts) {
    // time <op> constant (either side), time BETWEEN a AND b.
    if (c->expression_class == ExpressionClass::kBinary) {
      const auto& b = c->As<BinaryExpression>();
      if (IsComparison(b.op) && b.op != BinaryOp::kNotEqual) {
        const ParsedExpression* col = b.left.get();
        const ParsedExpression* val = b.right.get();
        BinaryOp op = b.op;
        if (!IsTimeColumn(*col) && IsTimeColumn(*val)) {
          std::swap(col, val);
          switch (op) {
            case BinaryOp::kLess: op = BinaryOp::kGreater; break;
            case BinaryOp::kLessEqual: op = BinaryOp::kGreaterEqual; break;
            case BinaryOp::kGreater: op = BinaryOp::kLess; break;
            case BinaryOp::kGreaterEqual: op = BinaryOp::kLessEqual; break;
            default: break;
          }
        }
        if (IsTimeColumn(*col)) {
          if (auto t = ConstantTime(*val, now_ns)) {
            int64_t lo = INT64_MIN, hi = INT64_MAX;
            switch (op) {
              case BinaryOp::kEqual: lo = hi = *t; break;
              case BinaryOp::kLess: hi = *t == INT64_MIN ? INT64_MIN : *t - 1; if (*t == INT64_MIN) lo = INT64_MAX; break;
              case BinaryOp::kLessEqual: hi = *t; break;
              case BinaryOp::kGreater: lo = *t == INT64_MAX ? INT64_MAX : *t + 1; if (*t == INT64_MAX) hi = INT64_MIN; break;
              case BinaryOp::kGreaterEqual: lo = *t; break;
              default: break;
            }
            out.min_time = std::max(out.min_time, lo);
            out.max_time = std::min(out.max_time, hi);
            out.has_time_bound = true;
            continue;
          }
        }
      }
    }
    if (c->expression_class == ExpressionClass::kBetween) {
      const auto& b = c->As<BetweenExpression>();
      if (!b.negated && IsTimeColumn(*b.input)) {
        auto lo = ConstantTime(*b.lower, now_ns);
        auto hi = ConstantTime(*b.upper, now_ns);
        if (lo && hi) {
          out.min_time = std::max(out.min_time, *lo);
          out.max_time = std::min(out.max_time, *hi);
          out.has_time_bound = true;
          continue;
        }
      }
    }
    std::string tag;
    std::vector<std::string> values;
    if (TagPredicate(*c, tag_keys, &tag, &values)) {
      std::set<storage::SeriesId> ids;
      for (const std::string& v : values) {
        for (storage::SeriesId id : reader.SeriesWithTag(tag, v)) ids.insert(id);
      }
      std::vector<storage::SeriesId> sorted(ids.begin(), ids.end());
      if (out.series) {
        std::vector<storage::SeriesId> both;
        std::set_intersection(out.series->begin(), out.series->end(), sorted.begin(), sorted.end(),
                              std::back_inserter(both));
        out.series = std::move(both);
      } else {
        out.series = std::move(sorted);
      }
      notes.push_back(tag + " in " + std::to_string(values.size()) + " values");
      continue;
    }
    out.residual.push_back(c);
  }
  if (out.has_time_bound) {
    auto fmt = [](int64_t t) {
      if (t == INT64_MIN) return std::string("-inf");
      if (t == INT64_MAX) return std::string("+inf");
      return FormatRfc3339(t);
    };
    notes.insert(notes.begin(), "time in [" + fmt(out.min_time) + ", " + fmt(out.max_time) + "]");
  }
  for (size_t i = 0; i < notes.size(); ++i) out.note += (i ? ", " : "pushed down: ") + notes[i];
  return out;
}

}  // namespace gnomon::query
