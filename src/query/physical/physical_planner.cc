#include "src/query/physical/physical_planner.h"

#include "src/query/execution/hash_aggregate_operator.h"
#include "src/query/execution/last_point_operator.h"
#include "src/query/execution/merge_join_operator.h"
#include "src/query/execution/sort_operator.h"
#include "src/query/execution/window_operator.h"
#include "src/query/logical/column_refs.h"
#include "src/query/physical/join_planner.h"

namespace gnomon::query {
namespace {

class PhysicalPlanner {
 public:
  PhysicalPlanner(ExecutionContext* ctx, int threads) : ctx_(ctx), threads_(threads) {}

  Result<OperatorPtr> Plan(LogicalNode* node) {
    switch (node->kind) {
      case LogicalKind::kGet: return PlanGet(node->As<LogicalGet>());
      case LogicalKind::kValues: {
        auto& v = node->As<LogicalValues>();
        return OperatorPtr(std::make_unique<ChunkSourceOperator>(v.schema, std::move(v.chunk), v.description));
      }
      case LogicalKind::kFilter: {
        auto& f = node->As<LogicalFilter>();
        GNOMON_ASSIGN_OR_RETURN(auto child, Plan(f.children[0].get()));
        std::string text;
        BoundExprPtr pred = Conjunction(&f.predicates, &text);
        return OperatorPtr(std::make_unique<FilterOperator>(std::move(child), std::move(pred), text));
      }
      case LogicalKind::kProject: return PlanProject(node->As<LogicalProject>());
      case LogicalKind::kAggregate: {
        auto& a = node->As<LogicalAggregate>();
        GNOMON_ASSIGN_OR_RETURN(auto child, Plan(a.children[0].get()));
        return OperatorPtr(std::make_unique<HashAggregateOperator>(std::move(child), std::move(a.keys), a.key_names,
                                                                   std::move(a.aggregates), ctx_));
      }
      case LogicalKind::kSort: {
        auto& s = node->As<LogicalSort>();
        GNOMON_ASSIGN_OR_RETURN(auto child, Plan(s.children[0].get()));
        return OperatorPtr(std::make_unique<SortOperator>(std::move(child), s.keys, s.top_n, ctx_, s.text));
      }
      case LogicalKind::kWindow: {
        auto& w = node->As<LogicalWindow>();
        GNOMON_ASSIGN_OR_RETURN(auto child, Plan(w.children[0].get()));
        return OperatorPtr(std::make_unique<WindowOperator>(std::move(child), std::move(w.calls), ctx_));
      }
      case LogicalKind::kDistinct: {
        auto& d = node->As<LogicalDistinct>();
        GNOMON_ASSIGN_OR_RETURN(auto child, Plan(d.children[0].get()));
        return OperatorPtr(std::make_unique<DistinctOperator>(std::move(child), d.key_columns, d.on));
      }
      case LogicalKind::kLimit: {
        auto& l = node->As<LogicalLimit>();
        GNOMON_ASSIGN_OR_RETURN(auto child, Plan(l.children[0].get()));
        return OperatorPtr(std::make_unique<LimitOperator>(std::move(child), l.limit, l.offset));
      }
      case LogicalKind::kBucketAggregate: {
        auto& b = node->As<LogicalBucketAggregate>();
        auto op = std::make_unique<BucketAggregateOperator>(b.reader, b.table, std::move(b.series), b.min_time,
                                                            b.max_time, std::move(b.keys), std::move(b.aggregates),
                                                            ctx_, threads_);
        if (b.newest_buckets > 0) op->SetNewestBuckets(b.newest_buckets);
        return OperatorPtr(std::move(op));
      }
      case LogicalKind::kJoin: {
        auto& j = node->As<LogicalJoin>();
        GNOMON_ASSIGN_OR_RETURN(HashJoinSpec spec, PlanJoinSpec(&j));
        int left_key = -1, right_key = -1;
        const bool merge = CanMergeJoin(spec, j, &left_key, &right_key);
        GNOMON_ASSIGN_OR_RETURN(auto left, Plan(j.children[0].get()));
        GNOMON_ASSIGN_OR_RETURN(auto right, Plan(j.children[1].get()));
        if (merge) {
          return OperatorPtr(std::make_unique<MergeJoinOperator>(std::move(left), std::move(right), left_key,
                                                                 right_key, spec.kind, spec.text, ctx_));
        }
        return OperatorPtr(std::make_unique<HashJoinOperator>(std::move(left), std::move(right), std::move(spec), ctx_));
      }
      case LogicalKind::kSetOperation: {
        auto& u = node->As<LogicalSetOperation>();
        GNOMON_ASSIGN_OR_RETURN(auto left, Plan(u.children[0].get()));
        GNOMON_ASSIGN_OR_RETURN(auto right, Plan(u.children[1].get()));
        return OperatorPtr(std::make_unique<SetOperationOperator>(std::move(left), std::move(right), u.op, ctx_));
      }
      case LogicalKind::kGapFill: {
        auto& g = node->As<LogicalGapFill>();
        if (!g.has_range) GNOMON_RETURN_IF_ERROR(GapFillRange(*g.children[0], &g.spec));
        GNOMON_ASSIGN_OR_RETURN(auto child, Plan(g.children[0].get()));
        return OperatorPtr(std::make_unique<GapFillOperator>(std::move(child), std::move(g.spec), ctx_));
      }
      case LogicalKind::kLastValues: {
        auto& l = node->As<LogicalLastValues>();
        return OperatorPtr(std::make_unique<LastValueAggregateOperator>(
            l.reader, l.table, std::move(l.series), std::move(l.key_tags), std::move(l.key_names),
            std::move(l.aggregates), ctx_));
      }
    }
    return Status::Internal("unknown logical operator");
  }

 private:
  // Gap filling's range from WHERE: the time bounds pushed into the scan under the aggregate.
  static Status GapFillRange(const LogicalNode& below, GapFillSpec* spec) {
    const LogicalNode* n = &below;
    while (n->kind != LogicalKind::kGet && n->kind != LogicalKind::kBucketAggregate && n->children.size() == 1) {
      n = n->children[0].get();
    }
    int64_t lo = std::numeric_limits<int64_t>::min(), hi = std::numeric_limits<int64_t>::max();
    if (n->kind == LogicalKind::kGet) {
      lo = n->As<LogicalGet>().pushdown.min_time;
      hi = n->As<LogicalGet>().pushdown.max_time;
    } else if (n->kind == LogicalKind::kBucketAggregate) {
      lo = n->As<LogicalBucketAggregate>().min_time;
      hi = n->As<LogicalBucketAggregate>().max_time;
    }
    if (lo == std::numeric_limits<int64_t>::min() || hi == std::numeric_limits<int64_t>::max()) {
      return Status::InvalidArgument("gap filling needs a time range: WHERE time >= ... AND time < ... on the table "
                                     "(or time_bucket_gapfill's start and finish arguments)");
    }
    spec->start = lo;
    spec->end = hi + 1;
    return Status::OK();
  }

  // The AND of the predicates (the one predicate alone), and their text.
  static BoundExprPtr Conjunction(std::vector<Predicate>* predicates, std::string* text) {
    std::vector<BoundExprPtr> parts;
    for (Predicate& p : *predicates) {
      *text += (text->empty() ? "" : " AND ") + p.text;
      parts.push_back(std::move(p.expr));
    }
    return MakeAnd(std::move(parts));
  }

  Result<OperatorPtr> PlanGet(LogicalGet& get) {
    if (get.last_point) {
      return OperatorPtr(std::make_unique<LastPointOperator>(get.reader, get.table, get.columns, get.Series()));
    }
    storage::ScanSpec spec;
    spec.series = get.Series();
    spec.min_time = get.pushdown.min_time;
    spec.max_time = get.pushdown.max_time;
    spec.newest_first = get.newest_first;
    auto scan = std::make_unique<ScanOperator>(get.reader, get.table, get.columns, spec, ctx_, get.per_series_limit,
                                               get.pushdown.note);
    if (get.filters.empty()) return OperatorPtr(std::move(scan));
    std::vector<bool> used;
    for (const Predicate& p : get.filters) MarkColumnRefs(*p.expr, &used);
    bool uses_tags = false;
    for (size_t i = 0; i < used.size(); ++i) uses_tags = uses_tags || (used[i] && get.columns[i].kind == ScanColumn::Kind::kTag);
    std::string text;
    BoundExprPtr pred = Conjunction(&get.filters, &text);
    // A predicate over times and fields only runs inside the scan, before tags are materialised
    // (and before a per-series limit counts rows).
    if (!uses_tags) {
      scan->SetPrefilter(std::move(pred), text);
      return OperatorPtr(std::move(scan));
    }
    return OperatorPtr(std::make_unique<FilterOperator>(std::move(scan), std::move(pred), text));
  }

  // A projection that keeps its input's first columns as they are is a trim of the rest.
  Result<OperatorPtr> PlanProject(LogicalProject& p) {
    GNOMON_ASSIGN_OR_RETURN(auto child, Plan(p.children[0].get()));
    bool trim = p.exprs.size() < child->schema().size();
    for (size_t i = 0; trim && i < p.exprs.size(); ++i) {
      trim = p.exprs[i]->kind == BoundKind::kColumn && p.exprs[i]->column == static_cast<int>(i) &&
             p.schema[i].name == child->schema()[i].name;
    }
    if (trim) return OperatorPtr(std::make_unique<TrimColumnsOperator>(std::move(child), p.exprs.size()));
    std::vector<std::string> names;
    for (const ResultColumn& c : p.schema) names.push_back(c.name);
    return OperatorPtr(std::make_unique<ProjectionOperator>(std::move(child), std::move(p.exprs), names));
  }

  ExecutionContext* ctx_;
  int threads_;
};

}  // namespace

Result<OperatorPtr> PlanPhysical(LogicalPtr plan, ExecutionContext* ctx, int threads) {
  PhysicalPlanner planner(ctx, threads);
  return planner.Plan(plan.get());
}

}  // namespace gnomon::query
