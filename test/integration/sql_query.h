// Runs SQL against a real server's /v1/sql endpoint (POST, form body sql=...) and reads the JSON
// answer {"columns":[{"name":..,"type":..}],"rows":[[...]]}.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "src/base/result.h"
#include "src/base/json_value.h"

namespace gnomon::test {

struct SqlResult {
  std::vector<std::string> columns;
  std::vector<std::vector<JsonValue>> rows;
};

// application/x-www-form-urlencoded encoding of one value.
std::string FormEncode(std::string_view value);

// Errors: transport failures, a non-200 answer (status and body quoted), malformed JSON.
Result<SqlResult> RunSql(uint16_t port, const std::string& database, const std::string& sql);

}  // namespace gnomon::test
