// The SQL lexer: turns statement text into tokens, skipping whitespace and comments.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "src/base/result.h"
#include "src/query/parser/token.h"

namespace gnomon::query {

// 1-based line and column of a byte offset. Lines end at '\n'; columns count UTF-8 code points,
// so a tab or a multi-byte character is one column.
struct SourcePosition {
  size_t line = 1;
  size_t column = 1;
};
SourcePosition LocateOffset(std::string_view sql, size_t offset);

// The InvalidArgument status every syntax error uses:
//   syntax error at line 3, column 17 near "FORM": expected FROM
// `near` is the offending source text (shortened, control characters escaped); an empty `near`
// at the end of the input reads "near end of input".
Status SyntaxError(std::string_view sql, size_t offset, std::string_view near,
                   std::string_view message);

// Splits `sql` into tokens; the last token is always kEnd. Comments (-- to end of line, and
// /* */ which nest as in PostgreSQL) and whitespace are skipped. Errors (unterminated string,
// quoted identifier or comment, a stray character, junk after a number) come back as
// SyntaxError with the position.
Result<std::vector<Token>> Tokenize(std::string_view sql);

}  // namespace gnomon::query
