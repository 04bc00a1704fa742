// FROM items that are joins: each side is bound on its own, the condition against both sides'
// columns (left first), and USING columns become one merged column each, ahead of the rest.
#include "src/query/binder/select_binder.h"

#include "src/query/function/scalar_functions.h"

namespace gnomon::query {
namespace {

JoinKind JoinKindOf(JoinType t) {
  switch (t) {
    case JoinType::kLeft: return JoinKind::kLeft;
    case JoinType::kRight: return JoinKind::kRight;
    case JoinType::kFull: return JoinKind::kFull;
    case JoinType::kInner:
    case JoinType::kCross: return JoinKind::kInner;
  }
  return JoinKind::kInner;
}

// A single relation's context as a join input: every column tagged with the relation's names.
void ToSources(BindContext* context) {
  if (!context->sources.empty() || context->columns.empty()) return;
  context->sources.assign(context->columns.size(), ColumnSource{context->qualifiers, false});
}

BindContext Concatenate(const BindContext& left, const BindContext& right) {
  BindContext both;
  both.now_ns = left.now_ns;
  both.columns = left.columns;
  both.columns.insert(both.columns.end(), right.columns.begin(), right.columns.end());
  both.sources = left.sources;
  both.sources.resize(left.columns.size());
  both.sources.insert(both.sources.end(), right.sources.begin(), right.sources.end());
  both.sources.resize(both.columns.size());
  return both;
}

std::string QualifiedName(const BindContext& context, int column) {
  const std::vector<std::string>& q = context.sources[column].qualifiers;
  const std::string& name = context.columns[column].name;
  return q.empty() || q.back().empty() ? name : q.back() + "." + name;
}

Result<int> UsingColumn(const BindContext& side, const std::string& name, const char* which) {
  Result<int> c = ResolveColumn(side, "", name);
  if (c.ok()) return c;
  if (c.status().IsNotFound()) {
    return Status::InvalidArgument("column \"" + name + "\" specified in USING clause does not exist in " + which +
                                   " table");
  }
  return c.status();
}

bool IsTimeComparison(BinaryOp op) {
  return op == BinaryOp::kGreaterEqual || op == BinaryOp::kGreater || op == BinaryOp::kLessEqual ||
         op == BinaryOp::kLess;
}

// ASOF: equalities (the keys) and exactly one inequality between a left and a right expression.
Status CheckAsofConditions(const LogicalJoin& join) {
  int inequalities = 0;
  for (const Predicate& p : join.conditions) {
    const BoundExpr& e = *p.expr;
    if (e.kind != BoundKind::kCompare || (e.op != BinaryOp::kEqual && !IsTimeComparison(e.op))) {
      return Status::InvalidArgument("an ASOF JOIN condition is equalities AND one time comparison; not: " + p.text);
    }
    if (e.op != BinaryOp::kEqual) ++inequalities;
  }
  if (inequalities != 1) {
    return Status::InvalidArgument("an ASOF JOIN needs exactly one inequality (such as a.time >= b.time) in ON");
  }
  return Status::OK();
}

}  // namespace

Result<SelectBinder::BoundRelation> SelectBinder::BindJoin(const JoinRef& join, const Statement& stmt,
                                                           const CteScope& scope) {
  GNOMON_ASSIGN_OR_RETURN(BoundRelation left, BindTableRef(*join.left, stmt, scope));
  ToSources(&left.context);
  const int left_width = static_cast<int>(left.context.columns.size());
  auto node = std::make_unique<LogicalJoin>();
  node->join_kind = JoinKindOf(join.join_type);
  node->asof = join.asof;
  BoundRelation right;
  const bool lateral = join.right->type == TableRefType::kSubquery && join.right->As<SubqueryRef>().lateral;
  if (lateral) {
    GNOMON_ASSIGN_OR_RETURN(right, BindLateral(join.right->As<SubqueryRef>(), stmt, scope, left.context, node.get()));
  } else {
    GNOMON_ASSIGN_OR_RETURN(right, BindTableRef(*join.right, stmt, scope));
  }
  ToSources(&right.context);
  BindContext both = Concatenate(left.context, right.context);
  node->schema = both.columns;
  std::vector<std::pair<int, int>> using_pairs;  // (left column, right column within both)
  if (join.condition) {
    if (ContainsAggregate(*join.condition)) {
      return Status::InvalidArgument("aggregate functions are not allowed in JOIN conditions");
    }
    GNOMON_ASSIGN_OR_RETURN(std::vector<Predicate> on, BindConjuncts(*join.condition, both));
    for (Predicate& p : on) node->conditions.push_back(std::move(p));
  }
  for (const std::string& name : join.using_columns) {
    GNOMON_ASSIGN_OR_RETURN(int l, UsingColumn(left.context, name, "left"));
    GNOMON_ASSIGN_OR_RETURN(int r, UsingColumn(right.context, name, "right"));
    r += left_width;
    Predicate p;
    p.expr = MakeEqual(MakeColumnRef(l, both.columns[l].type), MakeColumnRef(r, both.columns[r].type));
    p.text = QualifiedName(both, l) + " = " + QualifiedName(both, r);
    node->conditions.push_back(std::move(p));
    using_pairs.emplace_back(l, r);
  }
  if (join.asof) {
    if (node->join_kind != JoinKind::kInner && node->join_kind != JoinKind::kLeft) {
      return Status::InvalidArgument("ASOF joins are inner or LEFT");
    }
    GNOMON_RETURN_IF_ERROR(CheckAsofConditions(*node));
  }
  node->children.push_back(std::move(left.plan));
  node->children.push_back(std::move(right.plan));

  BoundRelation out;
  out.plan = std::move(node);
  out.context = std::move(both);
  if (!using_pairs.empty()) out = MergeUsingColumns(std::move(out), using_pairs, JoinKindOf(join.join_type));
  return out;
}

// USING (k): k once (the left value, the right one for a RIGHT join, the first non-NULL for
// FULL), answering the bare name; then both sides' columns, whose copies of k answer only
// qualified names (and a `t.*`), so that `SELECT *` shows k once, as SQL says.
SelectBinder::BoundRelation SelectBinder::MergeUsingColumns(BoundRelation joined,
                                                            const std::vector<std::pair<int, int>>& pairs,
                                                            JoinKind kind) {
  auto project = std::make_unique<LogicalProject>();
  BindContext context;
  context.now_ns = joined.context.now_ns;
  for (const auto& [l, r] : pairs) {
    const ResultColumn& lc = joined.context.columns[l];
    const ResultColumn& rc = joined.context.columns[r];
    BoundExprPtr e;
    ValueType type = lc.type == rc.type ? lc.type : (lc.type == ValueType::kNull ? rc.type : lc.type);
    if (kind == JoinKind::kFull) {
      e = std::make_unique<BoundExpr>();
      e->kind = BoundKind::kCall;
      e->name = "coalesce";
      e->type = type;
      e->children.push_back(MakeColumnRef(l, lc.type));
      e->children.push_back(MakeColumnRef(r, rc.type));
      if (!ResolveScalarFunction(e.get(), context.now_ns).ok()) {
        e = MakeColumnRef(l, lc.type);  // types coalesce cannot merge: the left value
      }
      type = e->type;
    } else {
      const int from = kind == JoinKind::kRight ? r : l;
      e = MakeColumnRef(from, joined.context.columns[from].type);
      type = joined.context.columns[from].type;
    }
    project->exprs.push_back(std::move(e));
    project->schema.push_back(ResultColumn{lc.name, type});
    context.sources.push_back(ColumnSource{});
  }
  const size_t width = joined.context.columns.size();
  std::vector<bool> is_using(width, false);
  for (const auto& [l, r] : pairs) is_using[l] = is_using[r] = true;
  for (size_t i = 0; i < width; ++i) {
    project->exprs.push_back(MakeColumnRef(static_cast<int>(i), joined.context.columns[i].type));
    project->schema.push_back(joined.context.columns[i]);
    ColumnSource source = joined.context.sources[i];
    source.qualified_only = source.qualified_only || is_using[i];
    context.sources.push_back(std::move(source));
  }
  context.columns = project->schema;
  project->children.push_back(std::move(joined.plan));
  return BoundRelation{std::move(project), std::move(context)};
}

// LATERAL (SELECT ... WHERE inner = outer AND local [ORDER BY o] [LIMIT n [OFFSET m]]): the
// subquery runs once for all outer rows, returning its inner keys first; with LIMIT 1 it keeps
// each key's first row (DISTINCT ON), with another LIMIT its rows are numbered per key
// (row_number() OVER (PARTITION BY keys ORDER BY o)) so that only each key's first n are kept; the keys' equalities go into the join's conditions (`join`). An
// uncorrelated LATERAL subquery is an ordinary one.
Result<SelectBinder::BoundRelation> SelectBinder::BindLateral(const SubqueryRef& ref, const Statement& stmt,
                                                              const CteScope& scope, const BindContext& outer,
                                                              LogicalJoin* join) {
  const SelectNode& sub = *ref.subquery;
  GNOMON_ASSIGN_OR_RETURN(std::optional<Correlation> c, FindCorrelation(sub, stmt, scope, outer));
  BoundRelation rel;
  if (!c) {
    GNOMON_ASSIGN_OR_RETURN(rel.plan, BindQuery(sub, stmt, scope));
    rel.context.qualifiers = {ref.alias};
  } else {
    bool aggregates = !sub.group_by.empty() || sub.having;
    for (const ExprPtr& e : sub.select_list) aggregates = aggregates || ContainsAggregate(*e);
    if (aggregates || sub.distinct) {
      return Status::InvalidArgument("a correlated LATERAL subquery with aggregates or DISTINCT is not supported: " +
                                     ref.ToString());
    }
    const size_t keys = c->inner_keys.size();
    auto inner = Decorrelated(sub, *c, true, false);
    // LIMIT 1: the first row per key is DISTINCT ON (keys) ... ORDER BY keys, o — the shape the
    // last-point rule answers from the cache when o is time DESC and the keys are tags.
    const bool first_only = sub.limit && *sub.limit == 1 && !sub.offset;
    const bool numbered = !first_only && (sub.limit || sub.offset);
    if (first_only) {
      inner->distinct = true;
      std::vector<OrderByItem> order;
      for (const ParsedExpression* k : c->inner_keys) {
        inner->distinct_on.push_back(k->Copy());
        OrderByItem item;
        item.expression = k->Copy();
        order.push_back(std::move(item));
      }
      for (const OrderByItem& o : sub.order_by) order.push_back(o.Copy());
      inner->order_by = std::move(order);
      inner->limit.reset();
    }
    if (numbered) {
      auto rn = std::make_unique<FunctionExpression>("row_number");
      rn->window = std::make_unique<WindowSpec>();
      for (const ParsedExpression* k : c->inner_keys) rn->window->partition_by.push_back(k->Copy());
      for (const OrderByItem& o : sub.order_by) rn->window->order_by.push_back(o.Copy());
      rn->alias = "__rn";
      inner->select_list.push_back(std::move(rn));
      inner->limit.reset();
      inner->offset.reset();
    }
    GNOMON_ASSIGN_OR_RETURN(rel.plan, BindQuery(*inner, stmt, scope));
    const int width = static_cast<int>(rel.plan->schema.size());
    if (numbered) {
      // Only rows offset < __rn <= offset + limit, and the number itself dropped.
      const int rn = width - 1;
      const int64_t from = sub.offset.value_or(0);
      auto filter = std::make_unique<LogicalFilter>();
      auto bound = [&](BinaryOp op, int64_t v) {
        auto e = std::make_unique<BoundExpr>();
        e->kind = BoundKind::kCompare;
        e->op = op;
        e->type = ValueType::kBool;
        e->children.push_back(MakeColumnRef(rn, rel.plan->schema[rn].type));
        e->children.push_back(MakeConstant(Value::Int(v)));
        return e;
      };
      filter->predicates.push_back(Predicate{bound(BinaryOp::kGreater, from), "__rn > " + std::to_string(from)});
      if (sub.limit) {
        filter->predicates.push_back(
            Predicate{bound(BinaryOp::kLessEqual, from + *sub.limit), "__rn <= " + std::to_string(from + *sub.limit)});
      }
      filter->schema = rel.plan->schema;
      filter->children.push_back(std::move(rel.plan));
      auto trim = std::make_unique<LogicalProject>();
      for (int i = 0; i < rn; ++i) {
        trim->exprs.push_back(MakeColumnRef(i, filter->schema[i].type));
        trim->schema.push_back(filter->schema[i]);
      }
      trim->children.push_back(std::move(filter));
      rel.plan = std::move(trim);
    }
    // The inner keys answer no name; the subquery's own columns its alias.
    for (size_t i = 0; i < rel.plan->schema.size(); ++i) {
      rel.context.sources.push_back(i < keys ? ColumnSource{{}, true} : ColumnSource{{ref.alias}, false});
    }
    const int left_width = static_cast<int>(outer.columns.size());
    for (size_t i = 0; i < keys; ++i) {
      GNOMON_ASSIGN_OR_RETURN(BoundExprPtr o, query::Bind(*c->outer_keys[i], outer));
      const ResultColumn& ic = rel.plan->schema[i];
      join->conditions.push_back(Predicate{MakeEqual(std::move(o), MakeColumnRef(left_width + static_cast<int>(i), ic.type)),
                                           c->outer_keys[i]->ToString() + " = " + c->inner_keys[i]->ToString()});
    }
  }
  rel.context.now_ns = options_.now_ns;
  rel.context.columns = rel.plan->schema;
  return rel;
}

}  // namespace gnomon::query
