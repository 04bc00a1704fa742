// FROM-clause items: a table (or CTE) name, a subquery, or a join of two of them.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "src/query/parser/ast_expression.h"

namespace gnomon::query {

enum class TableRefType : uint8_t { kBaseTable, kSubquery, kJoin };

class TableRef {
 public:
  explicit TableRef(TableRefType t) : type(t) {}
  virtual ~TableRef() = default;
  TableRef(const TableRef&) = delete;
  TableRef& operator=(const TableRef&) = delete;

  virtual std::string ToString() const = 0;
  virtual std::unique_ptr<TableRef> Copy() const = 0;

  template <typename T>
  const T& As() const {
    GNOMON_CHECK(type == T::kType);
    return static_cast<const T&>(*this);
  }

  const TableRefType type;
  std::string alias;  // empty when none was written
  SourceSpan span;

 protected:
  std::string AliasSuffix() const;  // " AS alias" or ""
};

// `cpu`, `db.cpu`, or the name of a CTE visible at this point (cte_reference; the parser resolves
// CTE names by scope so the binder need not).
class BaseTableRef : public TableRef {
 public:
  static constexpr TableRefType kType = TableRefType::kBaseTable;
  BaseTableRef() : TableRef(kType) {}

  std::string ToString() const override;
  std::unique_ptr<TableRef> Copy() const override;

  std::string schema_name;  // database qualifier; empty when not written
  std::string table_name;
  bool cte_reference = false;
};

// (SELECT ...) [AS] alias, optionally LATERAL. The alias may be empty (PostgreSQL 16 allows it,
// and InfluxQL-flavoured clients send `FROM(SELECT ...)`).
class SubqueryRef : public TableRef {
 public:
  static constexpr TableRefType kType = TableRefType::kSubquery;
  SubqueryRef();
  ~SubqueryRef() override;

  std::string ToString() const override;
  std::unique_ptr<TableRef> Copy() const override;

  std::unique_ptr<SelectNode> subquery;
  bool lateral = false;
};

enum class JoinType : uint8_t { kInner, kLeft, kRight, kFull, kCross };

// left JOIN right ON condition / USING (columns). `asof`: ASOF [LEFT] JOIN, whose ON holds
// equalities and one inequality between the two sides' times (the nearest row on one side).
class JoinRef : public TableRef {
 public:
  static constexpr TableRefType kType = TableRefType::kJoin;
  JoinRef() : TableRef(kType) {}

  std::string ToString() const override;
  std::unique_ptr<TableRef> Copy() const override;

  JoinType join_type = JoinType::kInner;
  std::unique_ptr<TableRef> left;
  std::unique_ptr<TableRef> right;
  ExprPtr condition;                       // ON; null for CROSS and USING
  std::vector<std::string> using_columns;  // USING (a, b)
  bool asof = false;
};

}  // namespace gnomon::query
