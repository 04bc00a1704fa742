// Binder: resolves parsed expressions against the columns of an input relation.
#pragma once

#include <map>
#include <string>
#include <unordered_set>
#include <vector>

#include "src/base/result.h"
#include "src/query/binder/bound_expression.h"
#include "src/query/execution/value.h"
#include "src/query/result.h"

namespace gnomon::query {

// Where one column of a joined relation came from (BindContext::sources).
struct ColumnSource {
  std::vector<std::string> qualifiers;  // the table name and alias of its side
  // Found only by a qualified name: each side's own copy of a USING column (the merged one
  // answers the bare name).
  bool qualified_only = false;
};

// Runs an uncorrelated subquery for the expression binder, which puts its answer in as
// constants: a scalar, EXISTS's boolean, IN's list (SelectBinder provides it).
class SubqueryRunner {
 public:
  virtual ~SubqueryRunner() = default;
  virtual Result<Chunk> Run(const SelectNode& subquery) const = 0;
};

struct BindContext {
  // Columns of the input chunk, by position.
  std::vector<ResultColumn> columns;
  // Names the relation may be qualified with (table name, alias).
  std::vector<std::string> qualifiers;
  // A join's input: per column, the relation it came from (columns past its end have none). When
  // set, `qualifiers` is unused, and a bare name that two relations have is ambiguous.
  std::vector<ColumnSource> sources;
  // Expressions (by normalised SQL text) that are already computed as input columns: group
  // keys and aggregates after an aggregation. Checked before anything else.
  std::map<std::string, int> computed;
  // The columns are a GROUP BY's output: FROM columns by position (ColumnPositionExpression)
  // are gone unless `computed` has them.
  bool grouped = false;
  // Select-list aliases usable here (GROUP BY / ORDER BY): alias -> parsed expression.
  const std::map<std::string, const ParsedExpression*>* aliases = nullptr;
  int64_t now_ns = 0;
  const SubqueryRunner* subqueries = nullptr;  // null: subqueries are not allowed here
};

// Resolves `expr`. Errors name what is unknown ("column \"x\" does not exist") or wrong.
Result<BoundExprPtr> Bind(const ParsedExpression& expr, const BindContext& context);

// Finds a column by name (case-insensitive when no exact match); -1 if absent.
int FindColumn(const BindContext& context, const std::string& name);
// Resolves `qualifier.name` (qualifier empty for a bare name): its column; NotFound when there is
// none, InvalidArgument when it is ambiguous or the qualifier names no relation.
Result<int> ResolveColumn(const BindContext& context, const std::string& qualifier, const std::string& name);
// Whether column `i` may be named with `qualifier`.
bool ColumnHasQualifier(const BindContext& context, size_t i, const std::string& qualifier);

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
// An aggregate call (not one used as a window function).
bool IsAggregateCall(const FunctionExpression& f);
// True if the expression contains an aggregate call (not looking into subqueries).
bool ContainsAggregate(const ParsedExpression& expr);

}  // namespace gnomon::query
