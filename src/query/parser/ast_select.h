// SELECT: the query node shared by top-level statements, subqueries and CTE bodies.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "src/query/parser/ast_expression.h"
#include "src/query/parser/ast_table_ref.h"

namespace gnomon::query {

// WITH name AS (SELECT ...). Names are unique within one WITH; a CTE may refer to the ones
// declared before it (WITH RECURSIVE is not accepted).
struct CommonTableExpression {
  std::string name;
  std::unique_ptr<SelectNode> query;
  SourceSpan span;
};

// WINDOW name AS (spec): a window definition OVER clauses of the same SELECT refer to.
struct NamedWindow {
  std::string name;
  std::unique_ptr<WindowSpec> spec;
};

// UNION / INTERSECT / EXCEPT of two queries (SelectNode::set_op).
enum class SetOperation : uint8_t { kNone, kUnion, kIntersect, kExcept };

class SelectNode {
 public:
  SelectNode() = default;
  SelectNode(const SelectNode&) = delete;
  SelectNode& operator=(const SelectNode&) = delete;

  std::string ToString() const;
  std::unique_ptr<SelectNode> Copy() const;

  std::vector<CommonTableExpression> ctes;  // in declaration order
  bool distinct = false;
  std::vector<ExprPtr> distinct_on;         // DISTINCT ON (...); implies distinct
  std::vector<ExprPtr> select_list;         // each with its alias; StarExpression for * / t.*
  std::string into_table;                   // InfluxQL-style SELECT ... INTO t (binder rejects)
  std::unique_ptr<TableRef> from;           // null without FROM
  ExprPtr where;
  std::vector<ExprPtr> group_by;            // expressions, alias names or ordinals, as written
  ExprPtr fill;                             // InfluxQL-style GROUP BY ... fill(x); rarely set
  ExprPtr having;
  std::vector<NamedWindow> windows;         // WINDOW w AS (...), ...
  std::vector<OrderByItem> order_by;
  std::optional<int64_t> limit;             // LIMIT n (n >= 0); LIMIT ALL leaves it empty
  std::optional<int64_t> offset;
  SourceSpan span;

  // A set operation: `set_left <op> [ALL] set_right`. Such a node uses only ctes, the two
  // operands, order_by, limit and offset (which apply to the combined rows).
  SetOperation set_op = SetOperation::kNone;
  bool set_all = false;
  std::unique_ptr<SelectNode> set_left, set_right;

 private:
  std::string SetOperationToString() const;
};

}  // namespace gnomon::query
