#include "src/query/binder/window_binder.h"

#include <set>

#include "src/query/execution/expression_executor.h"
#include "src/query/logical/column_refs.h"

namespace gnomon::query {
namespace {

// A window's definition with named windows resolved: pointers into the AST.
struct ResolvedWindow {
  std::vector<const ParsedExpression*> partition;
  std::vector<const OrderByItem*> order;
  const WindowFrame* frame = nullptr;
};

// PostgreSQL's rules for OVER (base ...): the referring window may add ORDER BY when the base
// has none, and a frame; it cannot change PARTITION BY or copy a base that has a frame.
Status Resolve(const WindowSpec& spec, const std::vector<NamedWindow>& windows, std::set<std::string>* seen,
               ResolvedWindow* out) {
  if (!spec.base.empty()) {
    const NamedWindow* base = nullptr;
    for (const NamedWindow& w : windows) {
      if (w.name == spec.base) base = &w;
    }
    if (base == nullptr) return Status::InvalidArgument("window \"" + spec.base + "\" does not exist");
    if (!seen->insert(spec.base).second) return Status::InvalidArgument("window \"" + spec.base + "\" refers to itself");
    GNOMON_RETURN_IF_ERROR(Resolve(*base->spec, windows, seen, out));
    if (!spec.partition_by.empty()) {
      return Status::InvalidArgument("cannot override PARTITION BY of window \"" + spec.base + "\"");
    }
    if (!spec.order_by.empty() && !out->order.empty()) {
      return Status::InvalidArgument("cannot override ORDER BY of window \"" + spec.base + "\"");
    }
    if (out->frame != nullptr && (!spec.order_by.empty() || spec.frame)) {
      return Status::InvalidArgument("cannot copy window \"" + spec.base + "\" because it has a frame clause");
    }
  }
  for (const ExprPtr& p : spec.partition_by) out->partition.push_back(p.get());
  for (const OrderByItem& o : spec.order_by) out->order.push_back(&o);
  if (spec.frame) out->frame = &*spec.frame;
  return Status::OK();
}

// A frame offset: a constant, non-negative; ROWS and GROUPS count rows or peer groups.
Status BindOffset(const FrameBound& bound, const WindowFrame& frame, const WindowCall& call, const BindContext& ctx,
                  int64_t* rows, double* range, int64_t* range_i) {
  if (!bound.offset) return Status::OK();
  GNOMON_ASSIGN_OR_RETURN(BoundExprPtr e, Bind(*bound.offset, ctx));
  if (!ReadsNoColumn(*e)) return Status::InvalidArgument("a window frame offset must be a constant: " + bound.ToString());
  GNOMON_ASSIGN_OR_RETURN(Value v, EvalConstant(*e));
  if (v.is_null()) return Status::InvalidArgument("a window frame offset cannot be NULL");
  if (frame.unit != FrameUnit::kRange) {
    if (v.type != ValueType::kInt64 || v.i < 0) {
      return Status::InvalidArgument("a ROWS or GROUPS frame offset must be a non-negative integer: " + bound.ToString());
    }
    *rows = v.i;
    return Status::OK();
  }
  if (call.order.size() != 1) {
    return Status::InvalidArgument("a RANGE frame with an offset needs exactly one ORDER BY column: " + call.text);
  }
  const ValueType key = call.order[0]->type;
  const bool integer_key = key == ValueType::kInt64 || key == ValueType::kTimestamp || key == ValueType::kUInt64;
  if (key != ValueType::kFloat64 && !integer_key) {
    return Status::InvalidArgument("a RANGE frame with an offset needs a numeric or time ORDER BY column: " + call.text);
  }
  if (!IsNumeric(v.type) || v.AsDouble() < 0 || (integer_key && v.type == ValueType::kFloat64)) {
    return Status::InvalidArgument(std::string("a RANGE frame offset must be a non-negative ") +
                                   (key == ValueType::kTimestamp ? "interval" : integer_key ? "integer" : "number") +
                                   ": " + bound.ToString());
  }
  *range = v.AsDouble();
  *range_i = v.type == ValueType::kUInt64 ? static_cast<int64_t>(std::min<uint64_t>(v.u, INT64_MAX)) : v.i;
  return Status::OK();
}

Status BindFrame(const ResolvedWindow& w, const BindContext& ctx, WindowCall* call) {
  BoundFrame& f = call->frame;
  if (w.frame == nullptr) {
    // SQL's default: to the current row's last peer with ORDER BY, the whole partition without.
    f.unit = FrameUnit::kRange;
    f.start = FrameBoundKind::kUnboundedPreceding;
    f.end = call->order.empty() ? FrameBoundKind::kUnboundedFollowing : FrameBoundKind::kCurrentRow;
    return Status::OK();
  }
  if (w.frame->unit == FrameUnit::kGroups && call->order.empty()) {
    return Status::InvalidArgument("GROUPS frames need ORDER BY: " + call->text);
  }
  f.unit = w.frame->unit;
  f.start = w.frame->start.kind;
  f.end = w.frame->end.kind;
  GNOMON_RETURN_IF_ERROR(BindOffset(w.frame->start, *w.frame, *call, ctx, &f.start_rows, &f.start_range, &f.start_range_i));
  return BindOffset(w.frame->end, *w.frame, *call, ctx, &f.end_rows, &f.end_range, &f.end_range_i);
}

// lag/lead's value and default share one type (an integer with a float default: both float),
// so the column has one type.
Status CoerceDefault(WindowCall* call) {
  if (call->args.size() < 3) return Status::OK();
  BoundExprPtr& value = call->args[0];
  BoundExprPtr& fallback = call->args[2];
  if (fallback->type == value->type || fallback->type == ValueType::kNull) return Status::OK();
  if (!IsNumeric(fallback->type) || !IsNumeric(value->type)) {
    return Status::InvalidArgument(call->text + ": the default's type " + std::string(ValueTypeName(fallback->type)) +
                                   " does not match the value's " + std::string(ValueTypeName(value->type)));
  }
  const ValueType common =
      value->type == ValueType::kFloat64 || fallback->type == ValueType::kFloat64 ? ValueType::kFloat64 : value->type;
  value = MakeCast(std::move(value), common);
  fallback = MakeCast(std::move(fallback), common);
  return Status::OK();
}

Result<WindowCall> BindCall(const FunctionExpression& f, std::string text, const std::vector<NamedWindow>& windows,
                            const BindContext& ctx) {
  WindowCall call;
  call.text = std::move(text);
  if (f.distinct) return Status::InvalidArgument("DISTINCT is not supported in window functions: " + call.text);
  if (!f.order_by.empty()) return Status::InvalidArgument("ORDER BY inside a window function's arguments is not supported: " + call.text);
  GNOMON_ASSIGN_OR_RETURN(call.kind, WindowKindOf(f.name, f.children.size(), f.is_star));
  ResolvedWindow w;
  std::set<std::string> seen;
  GNOMON_RETURN_IF_ERROR(Resolve(*f.window, windows, &seen, &w));
  for (const ExprPtr& a : f.children) {
    GNOMON_ASSIGN_OR_RETURN(BoundExprPtr b, Bind(*a, ctx));
    call.args.push_back(std::move(b));
  }
  const ValueType arg_type = call.args.empty() ? ValueType::kInt64 : call.args[0]->type;
  if ((call.kind == WindowFnKind::kSum || call.kind == WindowFnKind::kAvg) && !IsNumeric(arg_type) &&
      arg_type != ValueType::kNull) {
    return Status::InvalidArgument(f.name + " needs a numeric argument: " + call.text);
  }
  GNOMON_RETURN_IF_ERROR(CoerceDefault(&call));
  call.ordering = "partition:";
  for (const ParsedExpression* p : w.partition) {
    GNOMON_ASSIGN_OR_RETURN(BoundExprPtr b, Bind(*p, ctx));
    call.partition.push_back(std::move(b));
    call.ordering += p->ToString() + ",";
  }
  call.ordering += " order:";
  for (const OrderByItem* o : w.order) {
    GNOMON_ASSIGN_OR_RETURN(BoundExprPtr b, Bind(*o->expression, ctx));
    call.order.push_back(std::move(b));
    SortKey k{static_cast<int>(call.order_keys.size())};
    k.descending = o->descending;
    // PostgreSQL: NULLs are larger than any value (last ascending, first descending).
    k.nulls_first = o->nulls == NullsOrder::kDefault ? o->descending : o->nulls == NullsOrder::kFirst;
    call.order_keys.push_back(k);
    call.ordering += o->ToString() + ",";
  }
  GNOMON_RETURN_IF_ERROR(BindFrame(w, ctx, &call));
  call.result_type = WindowResultType(call.kind, call.args.empty() ? arg_type : call.args[0]->type);
  return call;
}

}  // namespace

bool IsWindowCall(const FunctionExpression& f) { return f.window != nullptr; }

Result<LogicalPtr> BindWindows(const DistinctCalls& calls,
                               const std::vector<NamedWindow>& windows, LogicalPtr input, BindContext* context) {
  auto node = std::make_unique<LogicalWindow>();
  node->schema = input->schema;
  for (size_t i = 0; i < calls.calls.size(); ++i) {
    GNOMON_ASSIGN_OR_RETURN(WindowCall call, BindCall(*calls.calls[i], calls.texts[i], windows, *context));
    node->schema.push_back(ResultColumn{call.text, call.result_type});
    node->calls.push_back(std::move(call));
  }
  const size_t inputs = input->schema.size();
  for (size_t i = 0; i < node->calls.size(); ++i) context->computed[node->calls[i].text] = static_cast<int>(inputs + i);
  node->children.push_back(std::move(input));
  context->columns = node->schema;
  return LogicalPtr(std::move(node));
}

}  // namespace gnomon::query
