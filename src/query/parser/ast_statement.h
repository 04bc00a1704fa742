// Statements: what ParseSql returns.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "src/query/parser/ast_select.h"

namespace gnomon::query {

enum class StatementType : uint8_t {
  kSelect,
  kExplain,
  kShow,            // SHOW DATABASES / SHOW TABLES / SHOW COLUMNS FROM t, DESCRIBE t
  kCreateDatabase,
  kDrop,            // DROP DATABASE / DROP TABLE
  kDelete,
};

class Statement {
 public:
  explicit Statement(StatementType t) : type(t) {}
  virtual ~Statement() = default;
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  virtual std::string ToString() const = 0;

  // The source text a span of this statement covers ("max(usage_user)"); empty if out of range.
  std::string_view SourceText(SourceSpan span) const;

  template <typename T>
  const T& As() const {
    GNOMON_CHECK(type == T::kType);
    return static_cast<const T&>(*this);
  }
  template <typename T>
  T& As() {
    GNOMON_CHECK(type == T::kType);
    return static_cast<T&>(*this);
  }

  const StatementType type;
  SourceSpan span;  // of the statement itself within `sql`
  // The whole text the statement was parsed from (shared by the statements of one script); every
  // span in this statement's tree is an offset into it.
  std::shared_ptr<const std::string> sql;
};

class SelectStatement : public Statement {
 public:
  static constexpr StatementType kType = StatementType::kSelect;
  SelectStatement() : Statement(kType) {}
  std::string ToString() const override;

  std::unique_ptr<SelectNode> node;
};

// EXPLAIN [ANALYZE] <select>.
class ExplainStatement : public Statement {
 public:
  static constexpr StatementType kType = StatementType::kExplain;
  ExplainStatement() : Statement(kType) {}
  std::string ToString() const override;

  bool analyze = false;
  std::unique_ptr<Statement> statement;  // a SelectStatement
};

enum class ShowKind : uint8_t { kDatabases, kTables, kColumns };

class ShowStatement : public Statement {
 public:
  static constexpr StatementType kType = StatementType::kShow;
  ShowStatement() : Statement(kType) {}
  std::string ToString() const override;

  ShowKind kind = ShowKind::kDatabases;
  std::string schema_name;  // SHOW TABLES FROM db, SHOW COLUMNS FROM db.t; empty when not given
  std::string table_name;   // kColumns
};

class CreateDatabaseStatement : public Statement {
 public:
  static constexpr StatementType kType = StatementType::kCreateDatabase;
  CreateDatabaseStatement() : Statement(kType) {}
  std::string ToString() const override;

  std::string name;
  bool if_not_exists = false;
};

enum class DropKind : uint8_t { kDatabase, kTable };

class DropStatement : public Statement {
 public:
  static constexpr StatementType kType = StatementType::kDrop;
  DropStatement() : Statement(kType) {}
  std::string ToString() const override;

  DropKind kind = DropKind::kTable;
  std::string schema_name;  // DROP TABLE db.t
  std::string name;
  bool if_exists = false;
};

class DeleteStatement : public Statement {
 public:
  static constexpr StatementType kType = StatementType::kDelete;
  DeleteStatement() : Statement(kType) {}
  std::string ToString() const override;

  std::string schema_name;
  std::string table_name;
  ExprPtr where;  // null: every row
};

// The output column name of select-list item `e`: its alias, else a column's name, else the
// item's source text with whitespace runs collapsed ("max(usage_user)", "date_trunc('hour', time)").
std::string SelectItemName(const ParsedExpression& e, const Statement& statement);

}  // namespace gnomon::query
