// The whole parsed-SQL AST: expressions, FROM items, SELECT nodes and statements.
#pragma once

#include "src/query/parser/ast_expression.h"  // IWYU pragma: export
#include "src/query/parser/ast_select.h"      // IWYU pragma: export
#include "src/query/parser/ast_statement.h"   // IWYU pragma: export
#include "src/query/parser/ast_table_ref.h"   // IWYU pragma: export
