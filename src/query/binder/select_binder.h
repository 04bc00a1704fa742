// Select binder: turns a parsed SELECT into a logical plan. It resolves names (tables, CTEs,
// subqueries, columns, select-list aliases, ordinals), types every expression and places each
// clause as a relational operator: FROM -> Get / Values / a subquery's plan, WHERE -> Filter,
// GROUP BY and aggregates -> Aggregate, HAVING -> Filter, the select list -> Project, then Sort,
// Distinct, Limit. It chooses nothing about storage: that is the optimizer's work.
#pragma once

#include <map>
#include <string>

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
};

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
  struct Query;
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
  static BoundRelation MergeUsingColumns(BoundRelation joined, const std::vector<std::pair<int, int>>& pairs,
                                         JoinKind kind);
  // set_operation_binder.cc
  Result<LogicalPtr> BindSetOperation(const SelectNode& node, const Statement& statement, const CteScope& scope);
  Result<LogicalPtr> BindBaseTable(const std::string& database, const std::string& table);
  Status ExpandSelectList(const SelectNode& node, const Statement& statement, Query* q);
  Status ExpandStar(const SelectNode& node, const std::string& relation, Query* q);
  Status ResolveGroupKeys(const SelectNode& node, Query* q);
  Result<LogicalPtr> BindWhere(const ParsedExpression& where, LogicalPtr input, const Query& q);
  Result<LogicalPtr> BindAggregate(const SelectNode& node, LogicalPtr input, Query* q);
  Result<LogicalPtr> BindOutput(const SelectNode& node, LogicalPtr input, Query* q);

  storage::Engine* engine_;
  SelectBinderOptions options_;
};

}  // namespace gnomon::query
