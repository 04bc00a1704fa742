#include "test/integration/sql_query.h"

#include <cctype>

#include "src/server/http/http_test_client.h"

namespace gnomon::test {

std::string FormEncode(std::string_view value) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : value) {
    if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '*') {
      out.push_back(static_cast<char>(c));
    } else if (c == ' ') {
      out.push_back('+');
    } else {
      out.push_back('%');
      out.push_back(kHex[c >> 4]);
      out.push_back(kHex[c & 15]);
    }
  }
  return out;
}

Result<SqlResult> RunSql(uint16_t port, const std::string& database, const std::string& sql) {
  GNOMON_ASSIGN_OR_RETURN(
      auto reply, server::http::HttpRequestOnce(
                      "127.0.0.1", port, "POST", "/v1/sql?db=" + FormEncode(database),
                      "sql=" + FormEncode(sql),
                      {{"Content-Type", "application/x-www-form-urlencoded"}}));
  if (reply.status != 200) {
    return Status::IOError("/v1/sql '" + sql + "': HTTP " + std::to_string(reply.status) + ": " +
                           reply.body.substr(0, 500));
  }
  GNOMON_ASSIGN_OR_RETURN(JsonValue json, JsonValue::Parse(reply.body));
  const JsonValue* columns = json.Find("columns");
  const JsonValue* rows = json.Find("rows");
  if (columns == nullptr || !columns->is_array() || rows == nullptr || !rows->is_array()) {
    return Status::Corruption("/v1/sql answer without columns and rows: " + reply.body.substr(0, 500));
  }
  SqlResult result;
  for (const JsonValue& c : columns->array()) result.columns.push_back(c.StringOr("name", ""));
  for (const JsonValue& r : rows->array()) {
    if (!r.is_array() || r.array().size() != result.columns.size()) {
      return Status::Corruption("/v1/sql row does not match the columns: " + reply.body.substr(0, 500));
    }
    result.rows.push_back(r.array());
  }
  return result;
}

}  // namespace gnomon::test
