// The SQL parser's public entry points. See docs/sql.md for the grammar accepted.
#pragma once

#include <memory>
#include <string_view>
#include <vector>

#include "src/base/result.h"
#include "src/query/parser/ast.h"

namespace gnomon::query {

// Parses one statement (an optional trailing ';' is allowed). Syntax errors come back as
// InvalidArgument: `syntax error at line 3, column 17 near "FORM": expected FROM`. Never crashes
// on any input; nesting deeper than kMaxParseNesting or kMaxExpressionDepth is an error too.
Result<std::unique_ptr<Statement>> ParseSql(std::string_view sql);

// Parses a script of ';'-separated statements (empty statements are skipped). All statements
// share one copy of the text, which their spans index into.
Result<std::vector<std::unique_ptr<Statement>>> ParseSqlScript(std::string_view sql);

// Parenthesis / subquery nesting the parser accepts (keeps its recursion bounded).
constexpr int kMaxParseNesting = 100;

}  // namespace gnomon::query
