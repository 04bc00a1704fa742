#include "src/query/binder/select_binder.h"

#include <cmath>

#include "src/query/binder/expression_binder.h"
#include "src/query/binder/window_binder.h"

namespace gnomon::query {
namespace {

bool IsColumnNamed(const ParsedExpression& e, const std::string& name) {
  return e.expression_class == ExpressionClass::kColumnRef &&
         e.As<ColumnRefExpression>().column_name() == name;
}

std::optional<int64_t> Ordinal(const ParsedExpression& e) {
  if (e.expression_class != ExpressionClass::kConstant) return std::nullopt;
  const auto& c = e.As<ConstantExpression>();
  if (c.kind != ConstantKind::kInteger) return std::nullopt;
  return c.int_value;
}


}  // namespace

void FlattenAnd(const ParsedExpression* e, std::vector<const ParsedExpression*>* out) {
  if (e->expression_class == ExpressionClass::kConjunction &&
      e->As<ConjunctionExpression>().op == ConjunctionOp::kAnd) {
    for (const auto& c : e->As<ConjunctionExpression>().children) FlattenAnd(c.get(), out);
    return;
  }
  out->push_back(e);
}

Result<std::vector<Predicate>> BindConjuncts(const ParsedExpression& where, const BindContext& context) {
  std::vector<const ParsedExpression*> conjuncts;
  FlattenAnd(&where, &conjuncts);
  std::vector<Predicate> predicates;
  for (const ParsedExpression* c : conjuncts) {
    Predicate p;
    GNOMON_ASSIGN_OR_RETURN(p.expr, query::Bind(*c, context));
    p.text = c->ToString();
    predicates.push_back(std::move(p));
  }
  return predicates;
}

namespace {

// A constant numeric argument in [0, max]: a quantile's fraction or a percentile's percent.
Result<double> FractionArgument(const FunctionExpression& f, const ParsedExpression& e, double max,
                                const BindContext& input) {
  GNOMON_ASSIGN_OR_RETURN(BoundExprPtr b, Bind(e, input));
  const std::string range = max == 1 ? "between 0 and 1" : "between 0 and 100";
  if (!b->IsConstant() || !IsNumeric(b->constant.type) || b->constant.is_null()) {
    return Status::InvalidArgument(f.name + "() takes a constant " + range + ", not " + e.ToString());
  }
  double v = b->constant.AsDouble();
  // A percent outside 0..100 ranks no value (null), as InfluxQL's percentile() answers.
  if (max == 100 && std::isfinite(v)) return v;
  if (!(v >= 0 && v <= max)) return Status::InvalidArgument(f.name + "() takes a value " + range + ", not " + e.ToString());
  return v;
}

// median(x), quantile_cont/quantile_disc(x, p), percentile_cont/percentile_disc(p) and mode()
// WITHIN GROUP (ORDER BY x), mode(x), percentile_nearest(x, percent) and
// arg_percentile_nearest(arg, x, percent).
Status BindHolistic(const FunctionExpression& f, const BindContext& input, AggregateSpec* spec) {
  if (f.distinct) return Status::InvalidArgument(f.name + "(DISTINCT ...) is not supported");
  if (!f.order_by.empty() && !f.within_group) {
    // mode(x ORDER BY key): ties go to the value that occurs first by key (InfluxQL's mode()).
    if (spec->kind != AggKind::kMode || f.order_by.size() != 1 || f.order_by[0].descending) {
      return Status::InvalidArgument(f.name + "() orders by WITHIN GROUP (ORDER BY ...), not ORDER BY inside the call");
    }
    GNOMON_ASSIGN_OR_RETURN(spec->key, Bind(*f.order_by[0].expression, input));
  }
  const ParsedExpression* ranked = f.within_group ? f.order_by[0].expression.get() : nullptr;
  if (f.within_group) {
    if (f.order_by.size() != 1) return Status::InvalidArgument(f.name + "() orders by exactly one expression");
    spec->descending = f.order_by[0].descending;
  }
  switch (spec->kind) {
    case AggKind::kQuantileCont:
    case AggKind::kQuantileDisc: {
      const ParsedExpression& p = f.within_group ? *f.children[0] : *f.children[1];
      if (!f.within_group) ranked = f.children[0].get();
      GNOMON_ASSIGN_OR_RETURN(spec->fraction, FractionArgument(f, p, 1, input));
      break;
    }
    case AggKind::kPercentileNearest: {
      const bool with_arg = f.children.size() == 3;
      ranked = f.children[with_arg ? 1 : 0].get();
      GNOMON_ASSIGN_OR_RETURN(spec->fraction, FractionArgument(f, *f.children[with_arg ? 2 : 1], 100, input));
      GNOMON_ASSIGN_OR_RETURN(spec->key, Bind(*ranked, input));
      GNOMON_ASSIGN_OR_RETURN(spec->arg, Bind(*f.children[0], input));
      if (spec->key->type == ValueType::kString) return Status::InvalidArgument(f.name + "() ranks numbers: " + spec->text);
      return Status::OK();
    }
    default:
      if (f.within_group && !f.children.empty()) {
        return Status::InvalidArgument(f.name + "() takes no arguments with WITHIN GROUP (ORDER BY x)");
      }
      if (!f.within_group) ranked = f.children[0].get();
      break;
  }
  GNOMON_ASSIGN_OR_RETURN(spec->arg, Bind(*ranked, input));
  const bool numeric_only = spec->kind == AggKind::kMedian || spec->kind == AggKind::kQuantileCont;
  if (numeric_only && !IsNumeric(spec->arg->type) && spec->arg->type != ValueType::kNull) {
    return Status::InvalidArgument(f.name + "() needs a numeric argument: " + spec->text);
  }
  return Status::OK();
}

// An aggregate call bound against the aggregate's input.
Result<AggregateSpec> BindAggregateCall(const FunctionExpression& f, std::string text, const BindContext& input) {
  AggregateSpec spec;
  bool desc = false;
  GNOMON_ASSIGN_OR_RETURN(spec.kind, AggregateKindOf(f.name, f.is_star ? 0 : f.children.size(),
                                                     !f.order_by.empty(), &desc));
  if (f.is_star && spec.kind != AggKind::kCountStar) {
    return Status::InvalidArgument(f.name + "(*) is not valid; only count(*)");
  }
  spec.distinct = f.distinct;
  spec.text = std::move(text);
  if (f.within_group && !IsHolistic(spec.kind)) {
    return Status::InvalidArgument(f.name + "() is not an ordered-set aggregate: WITHIN GROUP belongs to percentile_cont, "
                                   "percentile_disc and mode");
  }
  if (IsHolistic(spec.kind)) {
    GNOMON_RETURN_IF_ERROR(BindHolistic(f, input, &spec));
    spec.result_type = AggregateResultType(spec.kind, spec.arg->type);
    return spec;
  }
  if (!f.children.empty()) {
    GNOMON_ASSIGN_OR_RETURN(spec.arg, Bind(*f.children[0], input));
  }
  if (spec.kind == AggKind::kFirst || spec.kind == AggKind::kLast) {
    if (!f.order_by.empty()) {
      GNOMON_ASSIGN_OR_RETURN(spec.key, Bind(*f.order_by[0].expression, input));
      if (f.order_by[0].descending) spec.kind = spec.kind == AggKind::kFirst ? AggKind::kLast : AggKind::kFirst;
    } else if (f.children.size() == 2) {
      GNOMON_ASSIGN_OR_RETURN(spec.key, Bind(*f.children[1], input));
    } else {
      int t = FindColumn(input, "time");
      if (t < 0) return Status::InvalidArgument(f.name + " needs a time column or ORDER BY: " + spec.text);
      spec.key = MakeColumnRef(t, input.columns[t].type);
    }
  } else if (spec.kind == AggKind::kArgMax || spec.kind == AggKind::kArgMin) {
    GNOMON_ASSIGN_OR_RETURN(spec.key, Bind(*f.children[1], input));
  }
  ValueType arg_type = spec.arg ? spec.arg->type : ValueType::kInt64;
  if ((spec.kind == AggKind::kSum || spec.kind == AggKind::kAvg) && arg_type == ValueType::kString) {
    return Status::InvalidArgument(f.name + " needs a numeric argument: " + spec.text);
  }
  spec.result_type = AggregateResultType(spec.kind, arg_type);
  return spec;
}

template <typename T>
std::unique_ptr<T> Over(LogicalPtr input) {
  auto node = std::make_unique<T>();
  node->schema = input->schema;
  node->children.push_back(std::move(input));
  return node;
}

}  // namespace


Result<LogicalPtr> SelectBinder::Bind(const SelectNode& node, const Statement& statement) {
  return BindQuery(node, statement, {});
}

Result<LogicalPtr> SelectBinder::BindQuery(const SelectNode& node, const Statement& stmt, CteScope scope) {
  for (const auto& cte : node.ctes) scope[cte.name] = cte.query.get();
  if (node.set_op != SetOperation::kNone) return BindSetOperation(node, stmt, scope);
  return BindSelect(node, stmt, scope);
}

Result<LogicalPtr> SelectBinder::BindSelect(const SelectNode& node, const Statement& stmt, const CteScope& scope) {
  if (!node.into_table.empty()) return Status::InvalidArgument("SELECT ... INTO is not supported");
  if (node.fill) return Status::InvalidArgument("fill() is not supported in SQL; use COALESCE");

  Query q;
  q.source.now_ns = options_.now_ns;
  GNOMON_ASSIGN_OR_RETURN(LogicalPtr current, BindFrom(node, stmt, scope, &q));
  Runner runner(this, &stmt, &scope);
  q.source.subqueries = &runner;
  GNOMON_RETURN_IF_ERROR(ExpandSelectList(node, stmt, &q));
  GNOMON_RETURN_IF_ERROR(ResolveGroupKeys(node, &q));
  for (const ParsedExpression* e : q.items) CollectCalls(*e, IsAggregateCall, &q.agg_calls);
  if (node.having) CollectCalls(*node.having, IsAggregateCall, &q.agg_calls);
  for (const OrderByItem& o : node.order_by) CollectCalls(*o.expression, IsAggregateCall, &q.agg_calls);
  if (node.where && ContainsAggregate(*node.where)) {
    return Status::InvalidArgument("aggregate functions are not allowed in WHERE");
  }
  std::vector<const ParsedExpression*> where;
  GNOMON_RETURN_IF_ERROR(BindSubqueries(node, stmt, scope, &current, &q, &where));
  if (!where.empty()) {
    GNOMON_ASSIGN_OR_RETURN(current, BindWhere(where, std::move(current), q));
  }

  if (!q.group_keys.empty() || !q.agg_calls.calls.empty() || node.having) {
    q.output.now_ns = options_.now_ns;
    q.output.subqueries = &runner;
    q.output.qualifiers = q.source.qualifiers;
    for (const ColumnSource& s : q.source.sources) {
      q.output.qualifiers.insert(q.output.qualifiers.end(), s.qualifiers.begin(), s.qualifiers.end());
    }
    GNOMON_ASSIGN_OR_RETURN(current, BindAggregate(node, std::move(current), &q));
  } else {
    GNOMON_RETURN_IF_ERROR(CheckFillCalls(node, q));
    q.output = q.source;
  }
  DistinctCalls window_calls;
  for (const ParsedExpression* e : q.items) CollectCalls(*e, IsWindowCall, &window_calls);
  for (const OrderByItem& o : node.order_by) CollectCalls(*o.expression, IsWindowCall, &window_calls);
  if (!window_calls.calls.empty()) {
    GNOMON_ASSIGN_OR_RETURN(current, BindWindows(window_calls, node.windows, std::move(current), &q.output));
  }
  return BindOutput(node, std::move(current), &q);
}

Result<LogicalPtr> SelectBinder::BindFrom(const SelectNode& node, const Statement& stmt, const CteScope& scope,
                                          Query* q) {
  if (!node.from) {
    auto values = std::make_unique<LogicalValues>();
    values->chunk.rows = 1;
    values->description = "Single row";
    return LogicalPtr(std::move(values));
  }
  GNOMON_ASSIGN_OR_RETURN(BoundRelation rel, BindTableRef(*node.from, stmt, scope));
  rel.context.now_ns = options_.now_ns;
  q->source = std::move(rel.context);
  return std::move(rel.plan);
}

Result<SelectBinder::BoundRelation> SelectBinder::BindTableRef(const TableRef& ref, const Statement& stmt,
                                                               const CteScope& scope) {
  BoundRelation rel;
  if (ref.type == TableRefType::kJoin) return BindJoin(ref.As<JoinRef>(), stmt, scope);
  if (ref.type == TableRefType::kBaseTable) {
    const auto& t = ref.As<BaseTableRef>();
    auto cte = scope.find(t.table_name);
    if (cte != scope.end() && t.schema_name.empty()) {
      CteScope inner = scope;
      inner.erase(t.table_name);  // a CTE does not see itself
      GNOMON_ASSIGN_OR_RETURN(rel.plan, BindQuery(*cte->second, stmt, inner));
    } else {
      GNOMON_ASSIGN_OR_RETURN(rel.plan, BindBaseTable(t.schema_name.empty() ? options_.database : t.schema_name,
                                                      t.table_name));
    }
    rel.context.qualifiers = {t.table_name};
    if (!ref.alias.empty()) rel.context.qualifiers.push_back(ref.alias);
  } else {
    const auto& sq = ref.As<SubqueryRef>();
    GNOMON_ASSIGN_OR_RETURN(rel.plan, BindQuery(*sq.subquery, stmt, scope));
    rel.context.qualifiers = {sq.alias};
  }
  rel.context.now_ns = options_.now_ns;
  rel.context.columns = rel.plan->schema;
  return rel;
}

Result<LogicalPtr> SelectBinder::BindBaseTable(const std::string& database, const std::string& table) {
  if (options_.access_check) GNOMON_RETURN_IF_ERROR(options_.access_check(database, false));
  GNOMON_ASSIGN_OR_RETURN(auto reader, engine_->OpenTable(database, table));
  auto get = std::make_unique<LogicalGet>();
  get->reader = std::shared_ptr<storage::TableReader>(std::move(reader));
  get->table = table;
  get->columns = ScanColumnsOf(get->reader->Info());
  for (const ScanColumn& c : get->columns) get->schema.push_back(ResultColumn{c.name, c.type});
  return LogicalPtr(std::move(get));
}

Status SelectBinder::ExpandSelectList(const SelectNode& node, const Statement& stmt, Query* q) {
  for (const auto& e : node.select_list) {
    if (e->expression_class == ExpressionClass::kStar) {
      GNOMON_RETURN_IF_ERROR(ExpandStar(node, e->As<StarExpression>().relation, q));
      continue;
    }
    q->items.push_back(e.get());
    q->item_names.push_back(SelectItemName(*e, stmt));
  }
  for (const auto& e : node.select_list) {
    if (!e->alias.empty()) q->aliases[e->alias] = e.get();
  }
  return Status::OK();
}

// * (every column a bare name finds) or t.* (every column of t). In a join each column is named
// by its position, since two sides may share a name.
Status SelectBinder::ExpandStar(const SelectNode& node, const std::string& relation, Query* q) {
  if (q->source.columns.empty() && !node.from) return Status::InvalidArgument("SELECT * needs a FROM clause");
  const BindContext& src = q->source;
  bool any = false;
  for (size_t i = 0; i < src.columns.size(); ++i) {
    if (relation.empty() ? (i < src.sources.size() && src.sources[i].qualified_only)
                         : !ColumnHasQualifier(src, i, relation)) {
      continue;
    }
    any = true;
    const std::string& name = src.columns[i].name;
    if (src.sources.empty()) {
      std::vector<std::string> names{name};
      if (!relation.empty()) names.insert(names.begin(), relation);
      q->owned.push_back(std::make_unique<ColumnRefExpression>(std::move(names)));
    } else {
      q->owned.push_back(std::make_unique<ColumnPositionExpression>(static_cast<int>(i), name));
    }
    q->items.push_back(q->owned.back().get());
    q->item_names.push_back(name);
  }
  if (!relation.empty() && !any) {
    return Status::InvalidArgument("missing FROM-clause entry for table \"" + relation + "\"");
  }
  return Status::OK();
}

// Ordinals and select-list aliases in GROUP BY resolve to select items.
Status SelectBinder::ResolveGroupKeys(const SelectNode& node, Query* q) {
  for (const auto& g : node.group_by) {
    if (auto n = Ordinal(*g)) {
      if (*n < 1 || *n > static_cast<int64_t>(q->items.size())) {
        return Status::InvalidArgument("GROUP BY position " + std::to_string(*n) + " is not in the select list");
      }
      q->group_keys.push_back(q->items[*n - 1]);
      continue;
    }
    if (g->expression_class == ExpressionClass::kColumnRef && g->As<ColumnRefExpression>().names.size() == 1 &&
        FindColumn(q->source, g->As<ColumnRefExpression>().column_name()) < 0) {
      auto a = q->aliases.find(g->As<ColumnRefExpression>().column_name());
      if (a != q->aliases.end()) {
        q->group_keys.push_back(a->second);
        continue;
      }
    }
    q->group_keys.push_back(g.get());
  }
  return Status::OK();
}

Result<LogicalPtr> SelectBinder::BindWhere(const std::vector<const ParsedExpression*>& conjuncts, LogicalPtr input,
                                           const Query& q) {
  auto filter = Over<LogicalFilter>(std::move(input));
  for (const ParsedExpression* c : conjuncts) {
    GNOMON_ASSIGN_OR_RETURN(std::vector<Predicate> p, BindConjuncts(*c, q.source));
    for (Predicate& x : p) filter->predicates.push_back(std::move(x));
  }
  return LogicalPtr(std::move(filter));
}

Result<LogicalPtr> SelectBinder::BindAggregate(const SelectNode& node, LogicalPtr input, Query* q) {
  auto agg = std::make_unique<LogicalAggregate>();
  for (size_t i = 0; i < q->agg_calls.calls.size(); ++i) {
    GNOMON_ASSIGN_OR_RETURN(auto spec, BindAggregateCall(*q->agg_calls.calls[i], q->agg_calls.texts[i], q->source));
    agg->aggregates.push_back(std::move(spec));
  }
  std::vector<ValueType> key_types;
  GapFillKey gap;
  for (const ParsedExpression* g : q->group_keys) {
    if (ContainsAggregate(*g)) return Status::InvalidArgument("aggregate functions are not allowed in GROUP BY");
    BoundExprPtr k;
    if (IsGapFillCall(*g)) {
      if (gap.present) return Status::InvalidArgument("only one gap-filling bucket per GROUP BY: " + g->ToString());
      gap.column = static_cast<int>(agg->keys.size());
      GNOMON_ASSIGN_OR_RETURN(k, BindGapFillKey(*g, q->source, &gap));
    } else {
      GNOMON_ASSIGN_OR_RETURN(k, query::Bind(*g, q->source));
    }
    key_types.push_back(k->type);
    agg->keys.push_back(std::move(k));
    agg->key_names.push_back(g->ToString());
  }
  agg->schema = AggregateSchema(agg->key_names, key_types, agg->aggregates);
  agg->children.push_back(std::move(input));
  LogicalPtr current = std::move(agg);

  // After aggregation, group keys and aggregate calls are columns, found by their text.
  q->output.columns = current->schema;
  q->output.grouped = true;
  for (size_t i = 0; i < q->group_keys.size(); ++i) q->output.computed[q->group_keys[i]->ToString()] = static_cast<int>(i);
  for (size_t i = 0; i < q->agg_calls.calls.size(); ++i) {
    q->output.computed[q->agg_calls.texts[i]] = static_cast<int>(q->group_keys.size() + i);
  }
  if (node.having) {
    auto filter = Over<LogicalFilter>(std::move(current));
    Predicate p;
    GNOMON_ASSIGN_OR_RETURN(p.expr, query::Bind(*node.having, q->output));
    p.text = node.having->ToString();
    filter->predicates.push_back(std::move(p));
    current = std::move(filter);
  }
  if (gap.present) return BindGapFill(node, std::move(current), gap, q);
  GNOMON_RETURN_IF_ERROR(CheckFillCalls(node, *q));
  return current;
}

// The select list as a projection, with hidden columns after the visible ones for ORDER BY and
// DISTINCT ON keys that are not in it; then Sort, Distinct, Limit, and a projection dropping the
// hidden columns.
Result<LogicalPtr> SelectBinder::BindOutput(const SelectNode& node, LogicalPtr input, Query* q) {
  auto project = std::make_unique<LogicalProject>();
  for (size_t i = 0; i < q->items.size(); ++i) {
    GNOMON_ASSIGN_OR_RETURN(auto b, query::Bind(*q->items[i], q->output));
    project->schema.push_back(ResultColumn{q->item_names[i], b->type});
    project->exprs.push_back(std::move(b));
  }
  const size_t visible = project->exprs.size();
  auto output_index = [&](const ParsedExpression& e) -> Result<int> {
    if (auto n = Ordinal(e)) {
      if (*n < 1 || *n > static_cast<int64_t>(visible)) {
        return Status::InvalidArgument("ORDER BY position " + std::to_string(*n) + " is not in the select list");
      }
      return static_cast<int>(*n - 1);
    }
    if (e.expression_class == ExpressionClass::kColumnRef && e.As<ColumnRefExpression>().names.size() == 1) {
      const std::string& n = e.As<ColumnRefExpression>().column_name();
      for (size_t i = 0; i < visible; ++i) {
        if (q->item_names[i] == n && (!q->items[i]->alias.empty() || IsColumnNamed(*q->items[i], n))) {
          return static_cast<int>(i);
        }
      }
    }
    std::string text = e.ToString();
    for (size_t i = 0; i < visible; ++i) {
      if (q->items[i]->ToString() == text) return static_cast<int>(i);
    }
    BindContext ctx = q->output;
    ctx.aliases = &q->aliases;
    GNOMON_ASSIGN_OR_RETURN(auto b, query::Bind(e, ctx));
    project->schema.push_back(ResultColumn{text, b->type});
    project->exprs.push_back(std::move(b));
    return static_cast<int>(project->exprs.size() - 1);
  };
  auto sort = std::make_unique<LogicalSort>();
  for (const OrderByItem& o : node.order_by) {
    GNOMON_ASSIGN_OR_RETURN(int idx, output_index(*o.expression));
    SortKey k;
    k.column = idx;
    k.descending = o.descending;
    // PostgreSQL: NULLs are larger than any value (last ascending, first descending).
    k.nulls_first = o.nulls == NullsOrder::kDefault ? o.descending : o.nulls == NullsOrder::kFirst;
    sort->keys.push_back(k);
    sort->text += (sort->text.empty() ? "" : ", ") + o.ToString();
  }
  auto distinct = std::make_unique<LogicalDistinct>();
  for (const auto& d : node.distinct_on) {
    GNOMON_ASSIGN_OR_RETURN(int idx, output_index(*d));
    distinct->key_columns.push_back(idx);
  }
  if (node.distinct && node.distinct_on.empty()) {
    for (size_t i = 0; i < visible; ++i) distinct->key_columns.push_back(static_cast<int>(i));
  }
  distinct->on = !node.distinct_on.empty();

  project->children.push_back(std::move(input));
  LogicalPtr current = std::move(project);
  if (!sort->keys.empty()) {
    sort->schema = current->schema;
    sort->children.push_back(std::move(current));
    current = std::move(sort);
  }
  if (node.distinct || !node.distinct_on.empty()) {
    distinct->schema = current->schema;
    distinct->children.push_back(std::move(current));
    current = std::move(distinct);
  }
  if (node.limit || node.offset) {
    auto limit = Over<LogicalLimit>(std::move(current));
    limit->limit = node.limit.value_or(-1);
    limit->offset = node.offset.value_or(0);
    current = std::move(limit);
  }
  if (current->schema.size() > visible) {
    auto trim = Over<LogicalProject>(std::move(current));
    trim->schema.resize(visible);
    for (size_t i = 0; i < visible; ++i) trim->exprs.push_back(MakeColumnRef(static_cast<int>(i), trim->schema[i].type));
    current = std::move(trim);
  }
  return current;
}

}  // namespace gnomon::query
