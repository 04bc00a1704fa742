// Names that clients choose and that the engine turns into directory names or stores in schemas.
// Checked once, where a database, table or column first comes into being, so that nothing a
// client sends reaches the file system unchecked (directory names are also escaped, see
// EscapeFileName in manifest.h; these rules keep them short and readable).
#pragma once

#include <cstddef>
#include <string_view>

#include "src/base/status.h"

namespace gnomon::storage {

inline constexpr size_t kMaxDatabaseNameBytes = 64;
inline constexpr size_t kMaxTableNameBytes = 200;
inline constexpr size_t kMaxColumnNameBytes = 255;

// 1-64 bytes of [A-Za-z0-9_-.], starting with a letter, digit or underscore (InfluxDB 3's rule,
// plus '.' and a leading '_' for v1 names such as "_internal"). InvalidArgument says what is wrong.
Status ValidateDatabaseName(std::string_view name);

// 1-200 bytes; no control bytes (0x00-0x1F, 0x7F), no '/' or '\\'; not "." or "..", and not
// starting with '.' (reserved). Any other bytes (UTF-8 included) are allowed.
Status ValidateTableName(std::string_view name);

// Tag and field keys: 1-255 bytes without control bytes.
Status ValidateColumnName(std::string_view name);

}  // namespace gnomon::storage
