#include "src/query/planner/planner.h"

#include <algorithm>
#include <set>

#include "src/query/execution/basic_operators.h"
#include "src/query/execution/bucket_aggregate_operator.h"
#include "src/query/execution/expression_executor.h"
#include "src/query/execution/hash_aggregate_operator.h"
#include "src/query/execution/last_point_operator.h"
#include "src/query/execution/last_value_aggregate_operator.h"
#include "src/query/execution/scan_operator.h"
#include "src/query/function/scalar_functions.h"
#include "src/query/planner/binder.h"
#include "src/query/planner/where_analysis.h"

namespace gnomon::query {
namespace {

struct BaseTable {
  std::shared_ptr<storage::TableReader> reader;
  std::string name;
  storage::TableInfo info;
};

void CollectColumnNames(const ParsedExpression& e, std::set<std::string>* names) {
  if (e.expression_class == ExpressionClass::kColumnRef) {
    names->insert(e.As<ColumnRefExpression>().column_name());
  }
  if (e.expression_class == ExpressionClass::kFunction) {
    for (const OrderByItem& o : e.As<FunctionExpression>().order_by) CollectColumnNames(*o.expression, names);
  }
  e.ForEachChild([&](const ParsedExpression& c) { CollectColumnNames(c, names); });
}

void CollectAggregates(const ParsedExpression& e, std::vector<const FunctionExpression*>* out) {
  if (e.expression_class == ExpressionClass::kFunction) {
    const auto& f = e.As<FunctionExpression>();
    if (IsAggregateName(f.name) && !f.window) {
      std::string text = f.ToString();
      for (const FunctionExpression* seen : *out) {
        if (seen->ToString() == text) return;
      }
      out->push_back(&f);
      return;  // nested aggregates are rejected when binding the arguments
    }
  }
  e.ForEachChild([&](const ParsedExpression& c) { CollectAggregates(c, out); });
}

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

Result<OperatorPtr> Planner::PlanSelect(const SelectNode& node, const Statement& statement) {
  return Plan(node, statement, {});
}

Result<OperatorPtr> Planner::Plan(const SelectNode& node, const Statement& stmt, CteScope scope) {
  if (!node.into_table.empty()) return Status::InvalidArgument("SELECT ... INTO is not supported");
  if (node.fill) return Status::InvalidArgument("fill() is not supported in SQL; use COALESCE");
  for (const auto& cte : node.ctes) scope[cte.name] = cte.query.get();

  // ---- Source: a base table, a CTE, a subquery, or one empty row.
  std::optional<BaseTable> base;
  OperatorPtr source;
  BindContext src_ctx;
  src_ctx.now_ns = options_.now_ns;
  if (!node.from) {
    Chunk one;
    one.rows = 1;
    source = std::make_unique<ChunkSourceOperator>(std::vector<ResultColumn>{}, std::move(one), "Single row");
  } else if (node.from->type == TableRefType::kBaseTable) {
    const auto& t = node.from->As<BaseTableRef>();
    auto cte = scope.find(t.table_name);
    if (cte != scope.end() && t.schema_name.empty()) {
      CteScope inner = scope;
      inner.erase(t.table_name);  // a CTE does not see itself
      GNOMON_ASSIGN_OR_RETURN(source, Plan(*cte->second, stmt, inner));
      src_ctx.qualifiers = {t.table_name};
    } else {
      const std::string db = t.schema_name.empty() ? options_.database : t.schema_name;
      if (options_.access_check) GNOMON_RETURN_IF_ERROR(options_.access_check(db, false));
      GNOMON_ASSIGN_OR_RETURN(auto reader, engine_->OpenTable(db, t.table_name));
      BaseTable b;
      b.reader = std::shared_ptr<storage::TableReader>(std::move(reader));
      b.name = t.table_name;
      b.info = b.reader->Info();
      for (const auto& c : b.info.columns) src_ctx.columns.push_back(ResultColumn{c.name, c.type});
      src_ctx.qualifiers = {t.table_name};
      base = std::move(b);
    }
    if (!node.from->alias.empty()) src_ctx.qualifiers.push_back(node.from->alias);
  } else if (node.from->type == TableRefType::kSubquery) {
    const auto& sq = node.from->As<SubqueryRef>();
    GNOMON_ASSIGN_OR_RETURN(source, Plan(*sq.subquery, stmt, scope));
    src_ctx.qualifiers = {sq.alias};
  } else {
    return Status::InvalidArgument("joins are not supported: " + node.from->ToString());
  }
  if (source) src_ctx.columns = source->schema();

  // ---- Select list with * expanded.
  std::vector<ExprPtr> owned;
  std::vector<const ParsedExpression*> items;
  std::vector<std::string> item_names;
  for (const auto& e : node.select_list) {
    if (e->expression_class == ExpressionClass::kStar) {
      if (src_ctx.columns.empty() && !node.from) return Status::InvalidArgument("SELECT * needs a FROM clause");
      for (const ResultColumn& c : src_ctx.columns) {
        owned.push_back(std::make_unique<ColumnRefExpression>(std::vector<std::string>{c.name}));
        items.push_back(owned.back().get());
        item_names.push_back(c.name);
      }
      continue;
    }
    items.push_back(e.get());
    item_names.push_back(SelectItemName(*e, stmt));
  }
  std::map<std::string, const ParsedExpression*> aliases;
  for (size_t i = 0; i < node.select_list.size(); ++i) {
    const auto& e = node.select_list[i];
    if (!e->alias.empty()) aliases[e->alias] = e.get();
  }

  // ---- Group keys: ordinals and select-list aliases resolve to select items.
  std::vector<const ParsedExpression*> group_keys;
  for (const auto& g : node.group_by) {
    if (auto n = Ordinal(*g)) {
      if (*n < 1 || *n > static_cast<int64_t>(items.size())) {
        return Status::InvalidArgument("GROUP BY position " + std::to_string(*n) + " is not in the select list");
      }
      group_keys.push_back(items[*n - 1]);
      continue;
    }
    if (g->expression_class == ExpressionClass::kColumnRef && g->As<ColumnRefExpression>().names.size() == 1 &&
        FindColumn(src_ctx, g->As<ColumnRefExpression>().column_name()) < 0) {
      auto a = aliases.find(g->As<ColumnRefExpression>().column_name());
      if (a != aliases.end()) {
        group_keys.push_back(a->second);
        continue;
      }
    }
    group_keys.push_back(g.get());
  }

  std::vector<const FunctionExpression*> agg_calls;
  for (const ParsedExpression* e : items) CollectAggregates(*e, &agg_calls);
  if (node.having) CollectAggregates(*node.having, &agg_calls);
  for (const OrderByItem& o : node.order_by) CollectAggregates(*o.expression, &agg_calls);
  const bool aggregate = !group_keys.empty() || !agg_calls.empty() || node.having;
  if (node.where && ContainsAggregate(*node.where)) {
    return Status::InvalidArgument("aggregate functions are not allowed in WHERE");
  }

  // ---- Base table: pushdowns and the columns to read.
  WherePushdown push;
  std::vector<storage::SeriesId> series;
  std::vector<ScanColumn> scan_columns;
  if (base) {
    std::vector<std::string> tag_keys;
    for (const auto& c : base->info.columns) {
      if (c.kind == storage::ColumnInfo::Kind::kTag) tag_keys.push_back(c.name);
    }
    GNOMON_ASSIGN_OR_RETURN(push, AnalyzeWhere(node.where.get(), *base->reader, tag_keys, options_.now_ns));
    if (push.series) {
      series = *push.series;
    } else {
      series.resize(base->reader->SeriesCount());
      for (size_t i = 0; i < series.size(); ++i) series[i] = static_cast<storage::SeriesId>(i);
    }
    std::set<std::string> needed;
    for (const ParsedExpression* e : items) CollectColumnNames(*e, &needed);
    for (const ParsedExpression* e : push.residual) CollectColumnNames(*e, &needed);
    for (const ParsedExpression* e : group_keys) CollectColumnNames(*e, &needed);
    if (node.having) CollectColumnNames(*node.having, &needed);
    for (const OrderByItem& o : node.order_by) CollectColumnNames(*o.expression, &needed);
    for (const auto& d : node.distinct_on) CollectColumnNames(*d, &needed);
    // first/last without ORDER BY order by time, which the query need not name.
    for (const FunctionExpression* f : agg_calls) {
      if ((f->name == "first" || f->name == "last" || f->name == "first_value" || f->name == "last_value") &&
          f->order_by.empty() && f->children.size() == 1) {
        needed.insert("time");
      }
    }
    // Names may differ in case from the table's columns; match like the binder does.
    BindContext all;
    all.columns = src_ctx.columns;
    std::set<int> wanted;
    for (const std::string& n : needed) {
      int idx = FindColumn(all, n);
      if (idx >= 0) wanted.insert(idx);
    }
    src_ctx.columns.clear();
    for (int idx : wanted) {
      const storage::ColumnInfo& c = base->info.columns[idx];
      ScanColumn sc;
      sc.kind = c.kind == storage::ColumnInfo::Kind::kTime  ? ScanColumn::Kind::kTime
                : c.kind == storage::ColumnInfo::Kind::kTag ? ScanColumn::Kind::kTag
                                                             : ScanColumn::Kind::kField;
      sc.name = c.name;
      sc.type = c.type;
      scan_columns.push_back(sc);
      src_ctx.columns.push_back(ResultColumn{c.name, c.type});
    }
  }

  auto make_scan = [&](size_t per_series_limit, bool newest_first) -> Result<OperatorPtr> {
    storage::ScanSpec spec;
    spec.series = series;
    spec.min_time = push.min_time;
    spec.max_time = push.max_time;
    spec.newest_first = newest_first;
    auto scan = std::make_unique<ScanOperator>(base->reader, base->name, scan_columns, spec, ctx_,
                                               per_series_limit, push.note);
    if (push.residual.empty()) return OperatorPtr(std::move(scan));
    // AND of the residual conjuncts.
    auto conj = std::make_unique<ConjunctionExpression>(ConjunctionOp::kAnd);
    for (const ParsedExpression* r : push.residual) conj->children.push_back(r->Copy());
    const ParsedExpression& pred = push.residual.size() == 1 ? *push.residual[0] : *conj;
    GNOMON_ASSIGN_OR_RETURN(auto bound, Bind(pred, src_ctx));
    // A predicate over times and fields only runs inside the scan, before tags are materialised.
    std::set<std::string> used;
    CollectColumnNames(pred, &used);
    bool uses_tags = false;
    for (const ScanColumn& c : scan_columns) {
      if (c.kind == ScanColumn::Kind::kTag && used.count(c.name)) uses_tags = true;
    }
    if (!uses_tags && per_series_limit == 0) {
      scan->SetPrefilter(std::move(bound), pred.ToString());
      return OperatorPtr(std::move(scan));
    }
    return OperatorPtr(std::make_unique<FilterOperator>(std::move(scan), std::move(bound), pred.ToString()));
  };

  OperatorPtr current;
  BindContext post_ctx;  // what the select list binds against
  post_ctx.now_ns = options_.now_ns;
  post_ctx.qualifiers = src_ctx.qualifiers;

  if (aggregate) {
    // Aggregate specs bound against the source.
    std::vector<AggregateSpec> specs;
    for (const FunctionExpression* f : agg_calls) {
      AggregateSpec spec;
      bool desc = false;
      GNOMON_ASSIGN_OR_RETURN(spec.kind, AggregateKindOf(f->name, f->is_star ? 0 : f->children.size(),
                                                         !f->order_by.empty(), &desc));
      if (f->is_star && spec.kind != AggKind::kCountStar) {
        return Status::InvalidArgument(f->name + "(*) is not valid; only count(*)");
      }
      spec.distinct = f->distinct;
      spec.text = f->ToString();
      if (!f->children.empty()) {
        GNOMON_ASSIGN_OR_RETURN(spec.arg, Bind(*f->children[0], src_ctx));
      }
      if (spec.kind == AggKind::kFirst || spec.kind == AggKind::kLast) {
        if (!f->order_by.empty()) {
          GNOMON_ASSIGN_OR_RETURN(spec.key, Bind(*f->order_by[0].expression, src_ctx));
          if (f->order_by[0].descending) {
            spec.kind = spec.kind == AggKind::kFirst ? AggKind::kLast : AggKind::kFirst;
          }
        } else if (f->children.size() == 2) {
          GNOMON_ASSIGN_OR_RETURN(spec.key, Bind(*f->children[1], src_ctx));
        } else {
          int t = FindColumn(src_ctx, "time");
          if (t < 0) return Status::InvalidArgument(f->name + " needs a time column or ORDER BY: " + spec.text);
          spec.key = MakeColumnRef(t, src_ctx.columns[t].type);
        }
      } else if (spec.kind == AggKind::kArgMax || spec.kind == AggKind::kArgMin) {
        GNOMON_ASSIGN_OR_RETURN(spec.key, Bind(*f->children[1], src_ctx));
      }
      ValueType arg_type = spec.arg ? spec.arg->type : ValueType::kInt64;
      if ((spec.kind == AggKind::kSum || spec.kind == AggKind::kAvg) && arg_type == ValueType::kString) {
        return Status::InvalidArgument(f->name + " needs a numeric argument: " + spec.text);
      }
      spec.result_type = AggregateResultType(spec.kind, arg_type);
      specs.push_back(std::move(spec));
    }
    std::vector<BoundExprPtr> keys;
    std::vector<std::string> key_names;
    for (const ParsedExpression* g : group_keys) {
      if (ContainsAggregate(*g)) return Status::InvalidArgument("aggregate functions are not allowed in GROUP BY");
      GNOMON_ASSIGN_OR_RETURN(auto k, Bind(*g, src_ctx));
      keys.push_back(std::move(k));
      key_names.push_back(g->ToString());
    }

    // Last values per tag group: last_value(col ORDER BY time) / last(col) over a base table with
    // no time bound read the last-value cache.
    bool last_values = base.has_value() && push.residual.empty() && !push.has_time_bound && !specs.empty();
    for (size_t i = 0; last_values && i < keys.size(); ++i) {
      last_values = keys[i]->kind == BoundKind::kColumn &&
                    scan_columns[keys[i]->column].kind == ScanColumn::Kind::kTag;
    }
    for (size_t i = 0; last_values && i < specs.size(); ++i) {
      const AggregateSpec& s = specs[i];
      last_values = s.kind == AggKind::kLast && !s.distinct && s.arg && s.arg->kind == BoundKind::kColumn &&
                    s.key && s.key->kind == BoundKind::kColumn &&
                    scan_columns[s.key->column].kind == ScanColumn::Kind::kTime;
    }
    if (last_values) {
      std::vector<std::string> key_tags;
      for (const auto& k : keys) key_tags.push_back(scan_columns[k->column].name);
      std::vector<LastValueAggregate> lv;
      for (AggregateSpec& s : specs) {
        LastValueAggregate a;
        a.column = scan_columns[s.arg->column];
        a.spec = std::move(s);
        lv.push_back(std::move(a));
      }
      current = std::make_unique<LastValueAggregateOperator>(base->reader, base->name, series, key_tags,
                                                             key_names, std::move(lv), ctx_);
    }

    // Fast path: bucket/tag keys and count/sum/min/max/avg of plain fields over a base table
    // whose WHERE storage answered completely.
    bool fast = !last_values && base.has_value() && push.residual.empty();
    std::vector<BucketGroupKey> bkeys;
    for (size_t i = 0; fast && i < keys.size(); ++i) {
      const BoundExpr& k = *keys[i];
      BucketGroupKey bk;
      bk.name = key_names[i];
      TimeBucketFn fn;
      int col;
      if (AsTimeBucket(k, &fn, &col) && src_ctx.columns[col].name == "time") {
        bk.kind = BucketGroupKey::Kind::kBucket;
        bk.bucket = fn;
        bool dup = std::any_of(bkeys.begin(), bkeys.end(),
                               [](const BucketGroupKey& x) { return x.kind == BucketGroupKey::Kind::kBucket; });
        if (dup) fast = false;
      } else if (k.kind == BoundKind::kColumn &&
                 scan_columns[k.column].kind == ScanColumn::Kind::kTag) {
        bk.kind = BucketGroupKey::Kind::kTag;
        bk.tag = scan_columns[k.column].name;
      } else {
        fast = false;
      }
      bkeys.push_back(bk);
    }
    std::vector<BucketAggregate> baggs;
    for (size_t i = 0; fast && i < specs.size(); ++i) {
      const AggregateSpec& s = specs[i];
      if (!BucketAggregateOperator::Supports(s.kind) || s.distinct) { fast = false; break; }
      // Running min/max/sum and block statistics are numeric; strings take the general path.
      const bool counts = s.kind == AggKind::kCount || s.kind == AggKind::kCountStar;
      if (!counts && s.arg && !IsNumeric(s.arg->type)) { fast = false; break; }
      BucketAggregate ba;
      if (s.kind != AggKind::kCountStar) {
        if (s.arg->kind != BoundKind::kColumn || scan_columns[s.arg->column].kind != ScanColumn::Kind::kField) {
          fast = false;
          break;
        }
        ba.field = scan_columns[s.arg->column].name;
      }
      baggs.push_back(std::move(ba));
    }
    if (fast) {
      for (size_t i = 0; i < specs.size(); ++i) {
        baggs[i].spec.kind = specs[i].kind;
        baggs[i].spec.distinct = specs[i].distinct;
        baggs[i].spec.result_type = specs[i].result_type;
        baggs[i].spec.text = specs[i].text;
        if (specs[i].arg) baggs[i].spec.arg = MakeColumnRef(specs[i].arg->column, specs[i].arg->type);
      }
      const bool one_bucket_key = bkeys.size() == 1 && bkeys[0].kind == BucketGroupKey::Kind::kBucket;
      const std::string bucket_text = one_bucket_key ? key_names[0] : std::string();
      auto op = std::make_unique<BucketAggregateOperator>(base->reader, base->name, series, push.min_time,
                                                          push.max_time, std::move(bkeys), std::move(baggs),
                                                          ctx_, options_.threads);
      // ORDER BY <the bucket> DESC LIMIT n: only the newest n buckets matter.
      if (one_bucket_key && node.limit && !node.having && !node.distinct && node.distinct_on.empty() &&
          !node.order_by.empty() && node.order_by[0].descending) {
        const ParsedExpression* o = node.order_by[0].expression.get();
        if (auto n = Ordinal(*o); n && *n >= 1 && *n <= static_cast<int64_t>(items.size())) {
          o = items[*n - 1];
        } else if (o->expression_class == ExpressionClass::kColumnRef && aliases.count(o->ToString())) {
          o = aliases[o->ToString()];
        }
        if (o->ToString() == bucket_text) {
          op->SetNewestBuckets(static_cast<size_t>(*node.limit + node.offset.value_or(0)));
        }
      }
      current = std::move(op);
    } else if (!last_values) {
      if (base) {
        GNOMON_ASSIGN_OR_RETURN(current, make_scan(0, false));
      } else {
        current = std::move(source);
        if (node.where) {
          GNOMON_ASSIGN_OR_RETURN(auto pred, Bind(*node.where, src_ctx));
          current = std::make_unique<FilterOperator>(std::move(current), std::move(pred), node.where->ToString());
        }
      }
      current = std::make_unique<HashAggregateOperator>(std::move(current), std::move(keys), key_names,
                                                        std::move(specs), ctx_);
    }
    post_ctx.columns = current->schema();
    for (size_t i = 0; i < group_keys.size(); ++i) post_ctx.computed[key_names[i]] = static_cast<int>(i);
    for (size_t i = 0; i < agg_calls.size(); ++i) {
      post_ctx.computed[agg_calls[i]->ToString()] = static_cast<int>(group_keys.size() + i);
    }
    // Group-by columns may also be referred to by their plain names.
    if (node.having) {
      GNOMON_ASSIGN_OR_RETURN(auto pred, Bind(*node.having, post_ctx));
      current = std::make_unique<FilterOperator>(std::move(current), std::move(pred), node.having->ToString());
    }
  } else {
    if (base) {
      // Last point: DISTINCT ON (tags) ... ORDER BY tags, time DESC reads the last-value cache.
      bool last_point = !node.distinct_on.empty() && !push.has_time_bound && push.residual.empty() &&
                        node.order_by.size() == node.distinct_on.size() + 1;
      for (size_t i = 0; last_point && i < node.distinct_on.size(); ++i) {
        const auto& d = *node.distinct_on[i];
        last_point = d.expression_class == ExpressionClass::kColumnRef &&
                     std::any_of(scan_columns.begin(), scan_columns.end(), [&](const ScanColumn& c) {
                       return c.kind == ScanColumn::Kind::kTag && c.name == d.As<ColumnRefExpression>().column_name();
                     }) &&
                     node.order_by[i].expression->ToString() == d.ToString();
      }
      if (last_point) {
        const OrderByItem& t = node.order_by.back();
        last_point = IsColumnNamed(*t.expression, "time") && t.descending;
      }
      const bool newest = !node.order_by.empty() && node.distinct_on.empty() && !node.distinct &&
                          IsColumnNamed(*node.order_by[0].expression, "time") &&
                          node.order_by[0].descending && node.limit.has_value() && push.residual.empty();
      if (last_point) {
        current = std::make_unique<LastPointOperator>(base->reader, base->name, scan_columns, series);
      } else {
        size_t per_series = newest ? static_cast<size_t>(*node.limit + node.offset.value_or(0)) : 0;
        if (newest && per_series == 0) per_series = 1;  // LIMIT 0 reads nothing useful anyway
        GNOMON_ASSIGN_OR_RETURN(current, make_scan(per_series, newest));
      }
    } else {
      current = std::move(source);
      if (node.where) {
        GNOMON_ASSIGN_OR_RETURN(auto pred, Bind(*node.where, src_ctx));
        current = std::make_unique<FilterOperator>(std::move(current), std::move(pred), node.where->ToString());
      }
    }
    post_ctx.columns = src_ctx.columns;
  }

  // ---- Projection: visible items, then hidden sort / DISTINCT ON keys.
  std::vector<BoundExprPtr> exprs;
  std::vector<std::string> names = item_names;
  for (const ParsedExpression* e : items) {
    GNOMON_ASSIGN_OR_RETURN(auto b, Bind(*e, post_ctx));
    exprs.push_back(std::move(b));
  }
  const size_t visible = exprs.size();
  auto output_index = [&](const ParsedExpression& e, bool allow_alias) -> Result<int> {
    if (auto n = Ordinal(e)) {
      if (*n < 1 || *n > static_cast<int64_t>(visible)) {
        return Status::InvalidArgument("ORDER BY position " + std::to_string(*n) + " is not in the select list");
      }
      return static_cast<int>(*n - 1);
    }
    if (allow_alias && e.expression_class == ExpressionClass::kColumnRef &&
        e.As<ColumnRefExpression>().names.size() == 1) {
      const std::string& n = e.As<ColumnRefExpression>().column_name();
      for (size_t i = 0; i < visible; ++i) {
        if (names[i] == n && (!items[i]->alias.empty() || IsColumnNamed(*items[i], n))) return static_cast<int>(i);
      }
    }
    std::string text = e.ToString();
    for (size_t i = 0; i < visible; ++i) {
      if (items[i]->ToString() == text) return static_cast<int>(i);
    }
    BindContext ctx = post_ctx;
    ctx.aliases = &aliases;
    GNOMON_ASSIGN_OR_RETURN(auto b, Bind(e, ctx));
    exprs.push_back(std::move(b));
    names.push_back(text);
    return static_cast<int>(exprs.size() - 1);
  };
  std::vector<SortKey> sort_keys;
  std::string sort_text;
  for (const OrderByItem& o : node.order_by) {
    GNOMON_ASSIGN_OR_RETURN(int idx, output_index(*o.expression, true));
    SortKey k;
    k.column = idx;
    k.descending = o.descending;
    // PostgreSQL: NULLs are larger than any value (last ascending, first descending).
    k.nulls_first = o.nulls == NullsOrder::kDefault ? o.descending : o.nulls == NullsOrder::kFirst;
    sort_keys.push_back(k);
    sort_text += (sort_text.empty() ? "" : ", ") + o.ToString();
  }
  std::vector<int> distinct_keys;
  for (const auto& d : node.distinct_on) {
    GNOMON_ASSIGN_OR_RETURN(int idx, output_index(*d, true));
    distinct_keys.push_back(idx);
  }
  if (node.distinct && node.distinct_on.empty()) {
    for (size_t i = 0; i < visible; ++i) distinct_keys.push_back(static_cast<int>(i));
  }
  current = std::make_unique<ProjectionOperator>(std::move(current), std::move(exprs), names);
  const bool distinct = node.distinct || !node.distinct_on.empty();
  if (!sort_keys.empty()) {
    int64_t top_n = -1;
    if (node.limit && !distinct) top_n = *node.limit + node.offset.value_or(0);
    current = std::make_unique<SortOperator>(std::move(current), std::move(sort_keys), top_n, ctx_, sort_text);
  }
  if (distinct) {
    current = std::make_unique<DistinctOperator>(std::move(current), std::move(distinct_keys),
                                                 !node.distinct_on.empty());
  }
  if (node.limit || node.offset) {
    current = std::make_unique<LimitOperator>(std::move(current), node.limit.value_or(-1), node.offset.value_or(0));
  }
  if (current->schema().size() > visible) {
    current = std::make_unique<TrimColumnsOperator>(std::move(current), visible);
  }
  return current;
}

}  // namespace gnomon::query
