// Subqueries in expressions. An uncorrelated one runs once while binding and its answer becomes
// constants (SubqueryRunner; a long IN list becomes a semi join against the rows instead). A
// correlated one is decorrelated where its correlation is equalities between its own columns
// and the outer query's in its WHERE:
//   [NOT] EXISTS (SELECT ... WHERE inner = outer AND local)  ->  semi (anti) join on the keys
//   x IN (SELECT y ... WHERE inner = outer AND local)        ->  semi join on the keys and x = y
//   (SELECT agg(...) ... WHERE inner = outer AND local)       ->  LEFT JOIN of the aggregate
//                                                                grouped by the inner keys
// EXISTS and IN become joins only as WHERE conjuncts (anywhere else their answer is per row).
#include "src/query/binder/select_binder.h"

#include "src/query/function/scalar_functions.h"

namespace gnomon::query {
namespace {

// Above this many values an uncorrelated IN list becomes a hash semi join.
constexpr size_t kMaxInListValues = 1000;

ExprPtr AndOf(const std::vector<const ParsedExpression*>& parts) {
  if (parts.empty()) return nullptr;
  if (parts.size() == 1) return parts[0]->Copy();
  auto conj = std::make_unique<ConjunctionExpression>(ConjunctionOp::kAnd);
  for (const ParsedExpression* p : parts) conj->children.push_back(p->Copy());
  return conj;
}

// The subquery a WHERE conjunct joins on, if it is one: [NOT] EXISTS (...), x [NOT] IN (...).
struct JoinableSubquery {
  const SelectNode* query = nullptr;
  const ParsedExpression* in_operand = nullptr;  // IN's x
  bool negated = false;
};

std::optional<JoinableSubquery> AsJoinable(const ParsedExpression& e) {
  const ParsedExpression* inner = &e;
  bool negated = false;
  if (e.expression_class == ExpressionClass::kUnary && e.As<UnaryExpression>().op == UnaryOp::kNot) {
    inner = e.As<UnaryExpression>().child.get();
    negated = true;
  }
  if (inner->expression_class == ExpressionClass::kSubquery &&
      inner->As<SubqueryExpression>().kind == SubqueryKind::kExists) {
    return JoinableSubquery{inner->As<SubqueryExpression>().subquery.get(), nullptr, negated};
  }
  if (!negated && e.expression_class == ExpressionClass::kIn && e.As<InExpression>().subquery) {
    const auto& in = e.As<InExpression>();
    return JoinableSubquery{in.subquery.get(), in.operand.get(), in.negated};
  }
  return std::nullopt;
}

}  // namespace

Result<Chunk> SelectBinder::RunUncorrelated(const SelectNode& subquery, const Statement& stmt, const CteScope& scope) {
  auto cached = subquery_results_.find(&subquery);
  if (cached != subquery_results_.end()) return cached->second.rows;
  if (!options_.run_plan) return Status::InvalidArgument("subqueries cannot run here");
  Result<LogicalPtr> plan = BindQuery(subquery, stmt, scope);
  if (!plan.ok()) {
    if (plan.status().message().find("does not exist") == std::string::npos &&
        plan.status().message().find("missing FROM-clause") == std::string::npos) {
      return plan.status();
    }
    return Status::InvalidArgument(plan.status().message() +
                                   " (a subquery may read the outer query's columns only as EXISTS or IN in WHERE, "
                                   "or as a scalar aggregate, with equalities in its WHERE)");
  }
  std::vector<ResultColumn> schema = (*plan)->schema;
  GNOMON_ASSIGN_OR_RETURN(Chunk rows, options_.run_plan(std::move(*plan)));
  subquery_results_[&subquery] = SubqueryResult{std::move(schema), rows};
  return rows;
}

// Whether `subquery` reads the outer query: its WHERE conjuncts split into its own and
// equalities between an expression of its own columns and one of the outer query's. nullopt:
// it binds alone. An error: it is correlated in a way this cannot take apart.
Result<std::optional<SelectBinder::Correlation>> SelectBinder::FindCorrelation(const SelectNode& subquery,
                                                                              const Statement& stmt,
                                                                              const CteScope& scope,
                                                                              const BindContext& outer) {
  Result<LogicalPtr> alone = BindQuery(subquery, stmt, scope);
  if (alone.ok()) return std::optional<Correlation>();
  const Status failure = alone.status();
  if (subquery.set_op != SetOperation::kNone || !subquery.from || !subquery.where) return failure;
  GNOMON_ASSIGN_OR_RETURN(BoundRelation inner, BindTableRef(*subquery.from, stmt, scope));
  inner.context.now_ns = options_.now_ns;
  Correlation c;
  std::vector<const ParsedExpression*> conjuncts;
  FlattenAnd(subquery.where.get(), &conjuncts);
  for (const ParsedExpression* e : conjuncts) {
    if (query::Bind(*e, inner.context).ok()) {
      c.local.push_back(e);
      continue;
    }
    if (e->expression_class != ExpressionClass::kBinary || e->As<BinaryExpression>().op != BinaryOp::kEqual) {
      return failure;
    }
    const auto& b = e->As<BinaryExpression>();
    const bool left_inner = query::Bind(*b.left, inner.context).ok() && query::Bind(*b.right, outer).ok();
    const bool right_inner = !left_inner && query::Bind(*b.right, inner.context).ok() && query::Bind(*b.left, outer).ok();
    if (!left_inner && !right_inner) return failure;
    c.inner_keys.push_back(left_inner ? b.left.get() : b.right.get());
    c.outer_keys.push_back(left_inner ? b.right.get() : b.left.get());
  }
  if (c.inner_keys.empty()) return failure;
  return std::optional<Correlation>(std::move(c));
}

// The subquery without its correlated conjuncts, returning its inner keys first (as __key0 ...)
// and then, with `keep_items`, its own select list; grouped by the keys with `group_by_keys`.
std::unique_ptr<SelectNode> SelectBinder::Decorrelated(const SelectNode& subquery, const Correlation& c,
                                                       bool keep_items, bool group_by_keys) {
  auto node = subquery.Copy();
  node->where = AndOf(c.local);
  std::vector<ExprPtr> items;
  for (size_t i = 0; i < c.inner_keys.size(); ++i) {
    items.push_back(c.inner_keys[i]->Copy());
    items.back()->alias = "__key" + std::to_string(i);
  }
  if (keep_items) {
    for (ExprPtr& e : node->select_list) items.push_back(std::move(e));
  }
  node->select_list = std::move(items);
  if (group_by_keys) {
    node->group_by.clear();
    for (const ParsedExpression* k : c.inner_keys) node->group_by.push_back(k->Copy());
  }
  node->order_by.clear();
  return node;
}

// `outer` joined with `inner` on outer_keys[i] = inner column i (and, for IN, x = inner column
// n); a semi/anti join keeps the outer columns only.
Result<LogicalPtr> SelectBinder::JoinSubquery(LogicalPtr outer, const BindContext& outer_context, LogicalPtr inner,
                                              JoinKind kind, const std::vector<const ParsedExpression*>& outer_keys,
                                              const ParsedExpression* in_operand) {
  const int left_width = static_cast<int>(outer->schema.size());
  auto join = std::make_unique<LogicalJoin>();
  join->join_kind = kind;
  auto add = [&](const ParsedExpression& outer_expr, int inner_column) -> Status {
    GNOMON_ASSIGN_OR_RETURN(BoundExprPtr o, query::Bind(outer_expr, outer_context));
    const ResultColumn& ic = inner->schema[inner_column];
    Predicate p;
    p.expr = MakeEqual(std::move(o), MakeColumnRef(left_width + inner_column, ic.type));
    p.text = outer_expr.ToString() + " = " + ic.name;
    join->conditions.push_back(std::move(p));
    return Status::OK();
  };
  for (size_t i = 0; i < outer_keys.size(); ++i) GNOMON_RETURN_IF_ERROR(add(*outer_keys[i], static_cast<int>(i)));
  if (in_operand != nullptr) {
    if (static_cast<int>(inner->schema.size()) != static_cast<int>(outer_keys.size()) + 1) {
      return Status::InvalidArgument("subquery has too many columns");
    }
    GNOMON_RETURN_IF_ERROR(add(*in_operand, static_cast<int>(outer_keys.size())));
  }
  join->schema = outer->schema;
  if (kind != JoinKind::kSemi && kind != JoinKind::kAnti) {
    join->schema.insert(join->schema.end(), inner->schema.begin(), inner->schema.end());
  }
  join->children.push_back(std::move(outer));
  join->children.push_back(std::move(inner));
  return LogicalPtr(std::move(join));
}

// One WHERE conjunct that is [NOT] EXISTS / [NOT] IN (subquery), as a join where that is the
// better plan. Returns true if it was taken (the conjunct is then not a filter).
Result<bool> SelectBinder::BindSubqueryConjunct(const ParsedExpression& e, const Statement& stmt,
                                                const CteScope& scope, LogicalPtr* current, Query* q) {
  std::optional<JoinableSubquery> j = AsJoinable(e);
  if (!j) return false;
  GNOMON_ASSIGN_OR_RETURN(std::optional<Correlation> c, FindCorrelation(*j->query, stmt, scope, q->source));
  JoinKind kind = j->negated ? JoinKind::kAnti : JoinKind::kSemi;
  if (!c) {
    // Uncorrelated: EXISTS and a short IN list are constants; a long IN list a join on its rows.
    if (!j->in_operand) return false;
    GNOMON_ASSIGN_OR_RETURN(Chunk rows, RunUncorrelated(*j->query, stmt, scope));
    if (rows.rows <= kMaxInListValues) return false;
    auto values = std::make_unique<LogicalValues>();
    values->schema = subquery_results_.at(j->query).schema;
    values->chunk = std::move(rows);
    values->description = "Subquery result (" + std::to_string(values->chunk.rows) + " rows)";
    GNOMON_ASSIGN_OR_RETURN(*current, JoinSubquery(std::move(*current), q->source, std::move(values), kind, {},
                                                   j->in_operand));
    if (j->negated) (*current)->As<LogicalJoin>().null_aware = true;
    return true;
  }
  if (j->in_operand && j->negated) {
    return Status::InvalidArgument("NOT IN over a correlated subquery is not supported; write NOT EXISTS: " +
                                   e.ToString());
  }
  if (j->query->limit || j->query->offset || !j->query->group_by.empty() || j->query->having) {
    return Status::InvalidArgument("a correlated subquery with GROUP BY, HAVING or LIMIT is not supported: " +
                                   e.ToString());
  }
  auto inner = Decorrelated(*j->query, *c, j->in_operand != nullptr, false);
  if (!j->in_operand) inner->distinct = false;
  GNOMON_ASSIGN_OR_RETURN(LogicalPtr plan, BindQuery(*inner, stmt, scope));
  GNOMON_ASSIGN_OR_RETURN(*current, JoinSubquery(std::move(*current), q->source, std::move(plan), kind,
                                                 c->outer_keys, j->in_operand));
  return true;
}

// A correlated scalar subquery (one aggregate, no GROUP BY): a LEFT JOIN of the aggregate per
// inner key, whose column then answers the subquery's text (count's NULL for no rows is 0).
Status SelectBinder::BindCorrelatedScalar(const SubqueryExpression& e, const Statement& stmt, const CteScope& scope,
                                          LogicalPtr* current, Query* q) {
  const std::string text = e.ToString();
  if (q->source.computed.count(text)) return Status::OK();
  GNOMON_ASSIGN_OR_RETURN(std::optional<Correlation> c, FindCorrelation(*e.subquery, stmt, scope, q->source));
  if (!c) return Status::OK();  // uncorrelated: a constant, bound where it stands
  const SelectNode& sub = *e.subquery;
  const bool one_aggregate = sub.select_list.size() == 1 && ContainsAggregate(*sub.select_list[0]);
  if (!one_aggregate || !sub.group_by.empty() || sub.having || sub.limit || sub.offset) {
    return Status::InvalidArgument("a correlated scalar subquery must compute one aggregate without GROUP BY or "
                                   "LIMIT: " + text);
  }
  auto inner = Decorrelated(sub, *c, true, true);
  GNOMON_ASSIGN_OR_RETURN(LogicalPtr plan, BindQuery(*inner, stmt, scope));
  const int left_width = static_cast<int>((*current)->schema.size());
  const int value = left_width + static_cast<int>(c->inner_keys.size());
  GNOMON_ASSIGN_OR_RETURN(LogicalPtr joined, JoinSubquery(std::move(*current), q->source, std::move(plan),
                                                          JoinKind::kLeft, c->outer_keys, nullptr));
  // The outer columns, then the subquery's value (count: 0 where no inner row matched).
  auto project = std::make_unique<LogicalProject>();
  for (int i = 0; i < left_width; ++i) {
    project->exprs.push_back(MakeColumnRef(i, joined->schema[i].type));
    project->schema.push_back(joined->schema[i]);
  }
  BoundExprPtr v = MakeColumnRef(value, joined->schema[value].type);
  DistinctCalls calls;
  CollectCalls(*sub.select_list[0], IsAggregateCall, &calls);
  const bool is_count = calls.calls.size() == 1 && calls.calls[0] == sub.select_list[0].get() &&
                        calls.calls[0]->name == "count";
  if (is_count) {
    auto coalesce = std::make_unique<BoundExpr>();
    coalesce->kind = BoundKind::kCall;
    coalesce->name = "coalesce";
    coalesce->children.push_back(std::move(v));
    coalesce->children.push_back(MakeConstant(Value::Int(0)));
    GNOMON_RETURN_IF_ERROR(ResolveScalarFunction(coalesce.get(), options_.now_ns));
    v = std::move(coalesce);
  }
  project->schema.push_back(ResultColumn{text, v->type});
  project->exprs.push_back(std::move(v));
  project->children.push_back(std::move(joined));
  *current = std::move(project);
  q->source.columns = (*current)->schema;
  if (!q->source.sources.empty()) q->source.sources.push_back(ColumnSource{{}, true});
  q->source.computed[text] = left_width;
  return Status::OK();
}

// Before WHERE is bound: its joinable subquery conjuncts become joins (returned in *remaining are
// the others), and correlated scalar subqueries in WHERE and the select list become columns.
Status SelectBinder::BindSubqueries(const SelectNode& node, const Statement& stmt, const CteScope& scope,
                                    LogicalPtr* current, Query* q, std::vector<const ParsedExpression*>* remaining) {
  std::vector<const ParsedExpression*> conjuncts;
  if (node.where) FlattenAnd(node.where.get(), &conjuncts);
  for (const ParsedExpression* c : conjuncts) {
    GNOMON_ASSIGN_OR_RETURN(bool joined, BindSubqueryConjunct(*c, stmt, scope, current, q));
    if (!joined) remaining->push_back(c);
  }
  std::vector<const SubqueryExpression*> scalars;
  std::function<void(const ParsedExpression&)> collect = [&](const ParsedExpression& e) {
    if (e.expression_class == ExpressionClass::kSubquery && e.As<SubqueryExpression>().kind == SubqueryKind::kScalar) {
      scalars.push_back(&e.As<SubqueryExpression>());
      return;
    }
    e.ForEachChild(collect);
  };
  for (const ParsedExpression* c : *remaining) collect(*c);
  for (const ParsedExpression* e : q->items) collect(*e);
  for (const SubqueryExpression* s : scalars) GNOMON_RETURN_IF_ERROR(BindCorrelatedScalar(*s, stmt, scope, current, q));
  return Status::OK();
}

}  // namespace gnomon::query
