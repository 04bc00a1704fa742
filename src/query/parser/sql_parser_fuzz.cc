// Fuzz target for the SQL front end. Any input must come back as a Status or a statement, never a
// crash; and for a statement, its normalised SQL must parse again to the same normalised SQL
// (ToString is a fixed point), which checks the printer against the grammar.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "src/base/check.h"
#include "src/query/parser/interval.h"
#include "src/query/parser/parser.h"
#include "src/query/parser/time_literal.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view input(reinterpret_cast<const char*>(data), size);
  auto script = gnomon::query::ParseSqlScript(input);
  if (script.ok()) {
    for (const auto& statement : *script) {
      const std::string first = statement->ToString();
      auto again = gnomon::query::ParseSql(first);
      GNOMON_CHECK_MSG(again.ok(), first.c_str());
      GNOMON_CHECK_MSG((*again)->ToString() == first, first.c_str());
    }
  }
  (void)gnomon::query::ParseTimeLiteral(input);
  auto interval = gnomon::query::ParseInterval(input);
  if (interval.ok()) {
    auto back = gnomon::query::ParseInterval(gnomon::query::FormatInterval(*interval));
    GNOMON_CHECK(back.ok() && *back == *interval);
  }
  return 0;
}
