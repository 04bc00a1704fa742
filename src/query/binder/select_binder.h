// Select binder: turns a parsed SELECT into a logical plan. It resolves names (tables, CTEs,
// subqueries, columns, select-list aliases, ordinals), types every expression and places each
// clause as a relational operator: FROM -> Get / Values / a subquery's plan, WHERE -> Filter,
// GROUP BY and aggregates -> Aggregate, HAVING -> Filter, the select list -> Project, then Sort,
// Distinct, Limit. It chooses nothing about storage: that is the optimizer's work.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>

#include "src/base/result.h"
#include "src/query/access_check.h"
#include "src/query/binder/expression_binder.h"
#include "src/query/logical/logical_plan.h"
#include "src/query/parser/ast.h"
#include "src/storage/engine.h"

namespace gnomon::query {

struct SelectBinderOptions {
  std::string database;
  AccessCheck access_check;  // empty: allowed
  int64_t now_ns = 0;
  // Optimizes and runs a plan to its rows: uncorrelated subqueries run while binding. Empty:
  // subqueries in expressions are refused.
  std::function<Result<Chunk>(LogicalPtr)> run_plan;
};

// date_bin_gapfill(...) / time_bucket_gapfill(...) (gap_fill_binder.cc).
bool IsGapFillCall(const ParsedExpression& e);

// The AND-ed conjuncts of `e` (e itself when it is no AND), in the order written.
void FlattenAnd(const ParsedExpression* e, std::vector<const ParsedExpression*>* out);

// A WHERE as its AND-ed conjuncts, each bound against `context`, in the order written.
Result<std::vector<Predicate>> BindConjuncts(const ParsedExpression& where, const BindContext& context);

class SelectBinder {
 public:
  SelectBinder(storage::Engine* engine, SelectBinderOptions options)
      : engine_(engine), options_(std::move(options)) {}

  // `statement` owns the text the node's spans point into (for output column names).
  Result<LogicalPtr> Bind(const SelectNode& node, const Statement& statement);

 private:
  using CteScope = std::map<std::string, const SelectNode*>;
  // One SELECT's binding state.
  struct Query {
    BindContext source;  // the FROM relation's columns and the names it may be qualified with
    BindContext output;  // what the select list binds against (the aggregate's output, if any)
    std::vector<ExprPtr> owned;  // select items made by expanding *
    std::vector<const ParsedExpression*> items;
    std::vector<std::string> item_names;
    std::map<std::string, const ParsedExpression*> aliases;
    std::vector<const ParsedExpression*> group_keys;
    DistinctCalls agg_calls;
  };
  // A FROM item's plan and the names its columns answer to.
  struct BoundRelation {
    LogicalPtr plan;
    BindContext context;
  };

  Result<LogicalPtr> BindQuery(const SelectNode& node, const Statement& statement, CteScope scope);
  Result<LogicalPtr> BindSelect(const SelectNode& node, const Statement& statement, const CteScope& scope);
  Result<LogicalPtr> BindFrom(const SelectNode& node, const Statement& statement, const CteScope& scope,
                              Query* q);
  Result<BoundRelation> BindTableRef(const TableRef& ref, const Statement& statement, const CteScope& scope);
  // join_binder.cc
  Result<BoundRelation> BindJoin(const JoinRef& join, const Statement& statement, const CteScope& scope);
  Result<BoundRelation> BindLateral(const SubqueryRef& ref, const Statement& statement, const CteScope& scope,
                                    const BindContext& outer, LogicalJoin* join);
  static BoundRelation MergeUsingColumns(BoundRelation joined, const std::vector<std::pair<int, int>>& pairs,
                                         JoinKind kind);
  // set_operation_binder.cc
  Result<LogicalPtr> BindSetOperation(const SelectNode& node, const Statement& statement, const CteScope& scope);
  // gap_fill_binder.cc
  struct GapFillKey {
    bool present = false;
    int column = -1;  // which group key
    TimeBucketFn bucket;
    bool has_range = false;
    int64_t start = 0, end = 0;
  };
  Result<BoundExprPtr> BindGapFillKey(const ParsedExpression& key, const BindContext& source, GapFillKey* out);
  Result<LogicalPtr> BindGapFill(const SelectNode& node, LogicalPtr input, const GapFillKey& key, Query* q);
  static Status CheckFillCalls(const SelectNode& node, const Query& q);
  // subquery_binder.cc
  class Runner;
  // A correlated subquery's WHERE: its own conjuncts, and inner_keys[i] = outer_keys[i].
  struct Correlation {
    std::vector<const ParsedExpression*> local, inner_keys, outer_keys;
  };
  Result<Chunk> RunUncorrelated(const SelectNode& subquery, const Statement& statement, const CteScope& scope);
  Result<std::optional<Correlation>> FindCorrelation(const SelectNode& subquery, const Statement& statement,
                                                     const CteScope& scope, const BindContext& outer);
  static std::unique_ptr<SelectNode> Decorrelated(const SelectNode& subquery, const Correlation& c, bool keep_items,
                                                  bool group_by_keys);
  Result<LogicalPtr> JoinSubquery(LogicalPtr outer, const BindContext& outer_context, LogicalPtr inner, JoinKind kind,
                                  const std::vector<const ParsedExpression*>& outer_keys,
                                  const ParsedExpression* in_operand);
  Result<bool> BindSubqueryConjunct(const ParsedExpression& e, const Statement& statement, const CteScope& scope,
                                    LogicalPtr* current, Query* q);
  Status BindCorrelatedScalar(const SubqueryExpression& e, const Statement& statement, const CteScope& scope,
                              LogicalPtr* current, Query* q);
  Status BindSubqueries(const SelectNode& node, const Statement& statement, const CteScope& scope,
                        LogicalPtr* current, Query* q, std::vector<const ParsedExpression*>* remaining);
  Result<LogicalPtr> BindBaseTable(const std::string& database, const std::string& table);
  Status ExpandSelectList(const SelectNode& node, const Statement& statement, Query* q);
  Status ExpandStar(const SelectNode& node, const std::string& relation, Query* q);
  Status ResolveGroupKeys(const SelectNode& node, Query* q);
  Result<LogicalPtr> BindWhere(const std::vector<const ParsedExpression*>& conjuncts, LogicalPtr input,
                               const Query& q);
  Result<LogicalPtr> BindAggregate(const SelectNode& node, LogicalPtr input, Query* q);
  Result<LogicalPtr> BindOutput(const SelectNode& node, LogicalPtr input, Query* q);

  storage::Engine* engine_;
  SelectBinderOptions options_;
  // Uncorrelated subqueries, each run once: their columns and rows.
  struct SubqueryResult {
    std::vector<ResultColumn> schema;
    Chunk rows;
  };
  std::unordered_map<const SelectNode*, SubqueryResult> subquery_results_;
};

// Runs the uncorrelated subqueries of one SELECT (in its CTE scope) for the expression binder.
class SelectBinder::Runner final : public SubqueryRunner {
 public:
  Runner(SelectBinder* binder, const Statement* stmt, const CteScope* scope)
      : binder_(binder), stmt_(stmt), scope_(scope) {}
  Result<Chunk> Run(const SelectNode& subquery) const override {
    return binder_->RunUncorrelated(subquery, *stmt_, *scope_);
  }

 private:
  SelectBinder* binder_;
  const Statement* stmt_;
  const CteScope* scope_;
};

}  // namespace gnomon::query
