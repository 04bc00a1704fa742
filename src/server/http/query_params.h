// URL query strings and application/x-www-form-urlencoded bodies: "a=1&b=x%20y" -> {a:1, b:"x y"}.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gnomon::server::http {

// Decodes %XX escapes and (when plus_is_space) '+' as a space. A malformed escape ("%zz", a
// trailing "%") is kept literally, as Go's lenient clients expect to see their bytes back.
std::string UrlDecode(std::string_view text, bool plus_is_space = true);

class QueryParams {
 public:
  QueryParams() = default;
  // Parses "k=v&k2=v2"; a key without '=' gets an empty value; empty pieces are skipped.
  static QueryParams Parse(std::string_view text);

  // The first value of `key`, or nullopt.
  std::optional<std::string_view> Get(std::string_view key) const;
  // The first value of `key`, or `fallback`.
  std::string_view GetOr(std::string_view key, std::string_view fallback) const;
  bool Has(std::string_view key) const { return Get(key).has_value(); }
  const std::vector<std::pair<std::string, std::string>>& items() const { return items_; }

 private:
  std::vector<std::pair<std::string, std::string>> items_;
};

}  // namespace gnomon::server::http
