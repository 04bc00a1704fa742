// Binder: resolves parsed expressions against the columns of an input relation.
#pragma once

#include <map>
#include <string>
#include <unordered_set>
#include <vector>

#include "src/base/result.h"
#include "src/query/binder/bound_expression.h"
#include "src/query/result.h"

namespace gnomon::query {

struct BindContext {
  // Columns of the input chunk, by position.
  std::vector<ResultColumn> columns;
  // Names the relation may be qualified with (table name, alias).
  std::vector<std::string> qualifiers;
  // Expressions (by normalised SQL text) that are already computed as input columns: group
  // keys and aggregates after an aggregation. Checked before anything else.
  std::map<std::string, int> computed;
  // Select-list aliases usable here (GROUP BY / ORDER BY): alias -> parsed expression.
  const std::map<std::string, const ParsedExpression*>* aliases = nullptr;
  int64_t now_ns = 0;
};

// Resolves `expr`. Errors name what is unknown ("column \"x\" does not exist") or wrong.
Result<BoundExprPtr> Bind(const ParsedExpression& expr, const BindContext& context);

// Finds a column by name (case-insensitive when no exact match); -1 if absent.
int FindColumn(const BindContext& context, const std::string& name);

// The distinct calls of some kind in a query's clauses, in first-use order, with their texts (the
// key that finds each one's column once it is computed). A matched call is not searched further:
// a nested one is an error when its arguments are bound.
struct DistinctCalls {
  std::vector<const FunctionExpression*> calls;
  std::vector<std::string> texts;
  std::unordered_set<std::string> seen;
};
void CollectCalls(const ParsedExpression& e, bool (*match)(const FunctionExpression&), DistinctCalls* out);

// True for the names of aggregate functions.
bool IsAggregateName(const std::string& name);
// True if the expression contains an aggregate call (not looking into subqueries).
bool ContainsAggregate(const ParsedExpression& expr);

}  // namespace gnomon::query
