#include "src/query/parser/ast_statement.h"

#include <cctype>

namespace gnomon::query {
namespace {

std::string QualifiedName(const std::string& schema, const std::string& name) {
  return schema.empty() ? QuoteIdentifier(name)
                        : QuoteIdentifier(schema) + "." + QuoteIdentifier(name);
}

}  // namespace

std::string_view Statement::SourceText(SourceSpan s) const {
  if (!sql || s.offset > sql->size() || s.length > sql->size() - s.offset) return {};
  return std::string_view(*sql).substr(s.offset, s.length);
}

std::string SelectStatement::ToString() const { return node->ToString(); }

std::string ExplainStatement::ToString() const {
  return std::string(analyze ? "EXPLAIN ANALYZE " : "EXPLAIN ") + statement->ToString();
}

std::string ShowStatement::ToString() const {
  switch (kind) {
    case ShowKind::kDatabases:
      return "SHOW DATABASES";
    case ShowKind::kTables:
      return schema_name.empty() ? "SHOW TABLES" : "SHOW TABLES FROM " + QuoteIdentifier(schema_name);
    case ShowKind::kColumns:
      return "SHOW COLUMNS FROM " + QualifiedName(schema_name, table_name);
  }
  return "SHOW";
}

std::string CreateDatabaseStatement::ToString() const {
  return std::string(if_not_exists ? "CREATE DATABASE IF NOT EXISTS " : "CREATE DATABASE ") +
         QuoteIdentifier(name);
}

std::string DropStatement::ToString() const {
  std::string out = kind == DropKind::kDatabase ? "DROP DATABASE " : "DROP TABLE ";
  if (if_exists) out += "IF EXISTS ";
  return out + QualifiedName(schema_name, name);
}

std::string DeleteStatement::ToString() const {
  std::string out = "DELETE FROM " + QualifiedName(schema_name, table_name);
  if (where) out += " WHERE " + where->ToString();
  return out;
}

std::string SelectItemName(const ParsedExpression& e, const Statement& statement) {
  if (!e.alias.empty()) return e.alias;
  if (e.expression_class == ExpressionClass::kColumnRef) {
    return e.As<ColumnRefExpression>().column_name();
  }
  std::string_view text = statement.SourceText(e.span);
  if (text.empty()) return e.ToString();
  // Collapse whitespace runs (a multi-line expression becomes one line). String literals are
  // copied verbatim so '  ' inside quotes survives.
  std::string out;
  bool in_string = false;
  bool pending_space = false;
  for (char c : text) {
    if (!in_string && std::isspace(static_cast<unsigned char>(c))) {
      pending_space = !out.empty();
      continue;
    }
    if (pending_space) out += ' ';
    pending_space = false;
    if (c == '\'') in_string = !in_string;
    out += c;
  }
  return out;
}

}  // namespace gnomon::query
