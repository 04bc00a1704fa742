// Gap filling: a GROUP BY key date_bin_gapfill(width, time [, origin [, start, finish]] [, zone])
// (InfluxDB 3's, with Gnomon's zone as date_bin's) or
// time_bucket_gapfill(width, time [, start, finish]) (TimescaleDB) groups as date_bin /
// time_bucket, and a GapFill node over the aggregate adds the missing buckets; locf(x) and
// interpolate(x) of an aggregate or key in the select list or ORDER BY become its filled columns.
#include <algorithm>

#include "src/query/binder/select_binder.h"

#include "src/query/parser/time_literal.h"

namespace gnomon::query {
namespace {

bool IsFillCall(const FunctionExpression& f) { return !f.window && (f.name == "locf" || f.name == "interpolate"); }

}  // namespace

bool IsGapFillCall(const ParsedExpression& e) {
  if (e.expression_class != ExpressionClass::kFunction) return false;
  const auto& f = e.As<FunctionExpression>();
  return !f.window && (f.name == "date_bin_gapfill" || f.name == "time_bucket_gapfill");
}

// The key as its plain bucketing call; time_bucket_gapfill's start and finish go to *range.
Result<BoundExprPtr> SelectBinder::BindGapFillKey(const ParsedExpression& key, const BindContext& source,
                                                  GapFillKey* out) {
  const auto& f = key.As<FunctionExpression>();
  const bool timescale = f.name == "time_bucket_gapfill";
  // Both forms may name the range: time_bucket_gapfill after the time, date_bin_gapfill after
  // the origin.
  // date_bin_gapfill's time zone (as date_bin's) comes last: after the origin, or after the range.
  const bool zoned = !timescale && (f.children.size() == 4 || f.children.size() == 6);
  const size_t n = f.children.size() - (zoned ? 1 : 0);
  if (n < 2 || n > (timescale ? 4u : 5u) || (!timescale && n == 4) || (zoned && n < 3)) {
    return Status::InvalidArgument(f.name + (timescale ? " takes (width, time [, start, finish])"
                                                       : " takes (width, time [, origin [, start, finish]] [, zone])") +
                                   ": " + key.ToString());
  }
  auto plain = std::make_unique<FunctionExpression>(timescale ? "time_bucket" : "date_bin");
  const size_t args = timescale ? 2 : std::min<size_t>(n, 3);
  for (size_t i = 0; i < args; ++i) plain->children.push_back(f.children[i]->Copy());
  if (zoned) plain->children.push_back(f.children.back()->Copy());
  GNOMON_ASSIGN_OR_RETURN(BoundExprPtr bound, query::Bind(*plain, source));
  int column = -1;
  if (!AsTimeBucket(*bound, &out->bucket, &column)) {
    return Status::InvalidArgument(f.name + " buckets a time column by a constant width: " + key.ToString());
  }
  const size_t range_at = timescale ? 2 : 3;
  if (n == range_at + 2) {
    int64_t bounds[2];
    for (size_t i = 0; i < 2; ++i) {
      GNOMON_ASSIGN_OR_RETURN(BoundExprPtr b, query::Bind(*f.children[range_at + i], source));
      if (!b->IsConstant() || b->constant.is_null()) {
        return Status::InvalidArgument(f.name + "'s start and finish are constant times: " + key.ToString());
      }
      if (b->constant.type == ValueType::kString) {
        GNOMON_ASSIGN_OR_RETURN(bounds[i], ParseTimeLiteral(b->constant.s));
      } else {
        bounds[i] = b->constant.i;
      }
    }
    out->has_range = true;
    out->start = bounds[0];
    out->end = bounds[1];
  } else if (timescale && f.children.size() == 3) {
    return Status::InvalidArgument("time_bucket_gapfill takes both start and finish, or neither: " + key.ToString());
  }
  out->present = true;
  return bound;
}

// Over the aggregate's output (`q->output` describes it): the GapFill node, its filled columns
// answering the locf/interpolate calls.
Result<LogicalPtr> SelectBinder::BindGapFill(const SelectNode& node, LogicalPtr input, const GapFillKey& key,
                                             Query* q) {
  auto gap = std::make_unique<LogicalGapFill>();
  gap->spec.bucket = key.bucket;
  gap->spec.bucket_column = key.column;
  for (size_t i = 0; i < q->group_keys.size(); ++i) {
    if (static_cast<int>(i) != key.column) gap->spec.group_columns.push_back(static_cast<int>(i));
  }
  gap->has_range = key.has_range;
  gap->spec.start = key.start;
  gap->spec.end = key.end;
  gap->spec.text = q->group_keys[key.column]->ToString();
  gap->schema = input->schema;
  DistinctCalls fills;
  for (const ParsedExpression* e : q->items) CollectCalls(*e, IsFillCall, &fills);
  for (const OrderByItem& o : node.order_by) CollectCalls(*o.expression, IsFillCall, &fills);
  for (size_t i = 0; i < fills.calls.size(); ++i) {
    const FunctionExpression& f = *fills.calls[i];
    if (f.children.size() != 1) return Status::InvalidArgument(f.name + " takes one argument: " + fills.texts[i]);
    GNOMON_ASSIGN_OR_RETURN(BoundExprPtr arg, query::Bind(*f.children[0], q->output));
    if (arg->kind != BoundKind::kColumn) {
      return Status::InvalidArgument(f.name + " fills an aggregate or a GROUP BY key: " + fills.texts[i]);
    }
    GapFillSpec::Fill fill;
    fill.column = arg->column;
    fill.interpolate = f.name == "interpolate";
    fill.name = fills.texts[i];
    gap->spec.fills.push_back(fill);
    const ValueType t = q->output.columns[arg->column].type;
    gap->schema.push_back(ResultColumn{fills.texts[i], FilledType(t, fill.interpolate)});
    q->output.computed[fills.texts[i]] = static_cast<int>(gap->schema.size() - 1);
    gap->spec.text += ", " + std::string(fill.interpolate ? "interpolate " : "locf ") + f.children[0]->ToString();
  }
  q->output.columns = gap->schema;
  gap->children.push_back(std::move(input));
  return LogicalPtr(std::move(gap));
}

Status SelectBinder::CheckFillCalls(const SelectNode& node, const Query& q) {
  DistinctCalls fills;
  for (const ParsedExpression* e : q.items) CollectCalls(*e, IsFillCall, &fills);
  for (const OrderByItem& o : node.order_by) CollectCalls(*o.expression, IsFillCall, &fills);
  if (fills.calls.empty()) return Status::OK();
  return Status::InvalidArgument(fills.calls[0]->name +
                                 "() needs date_bin_gapfill or time_bucket_gapfill in GROUP BY: " + fills.texts[0]);
}

}  // namespace gnomon::query
