// Fuzz target for the InfluxQL front end: any input comes back as a Status or statements, never a
// crash; and every SELECT that compiles (against a fixed schema) must compile to SQL the SQL
// parser accepts, which checks the compiler's quoting and shapes. An input whose first line is a
// JSON object binds it as the query's parameters (/query's `params`), fuzzing the JSON reader and
// the binding too.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "src/base/check.h"
#include "src/query/influxql/influxql_compiler.h"
#include "src/query/influxql/influxql_params.h"
#include "src/query/influxql/influxql_parser.h"
#include "src/query/parser/parser.h"

using namespace gnomon;
using namespace gnomon::query::influxql;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view input(reinterpret_cast<const char*>(data), size);
  std::optional<BoundParams> params;
  if (size_t nl = input.find('\n'); !input.empty() && input[0] == '{' && nl != std::string_view::npos) {
    auto p = ParseBoundParams(input.substr(0, nl));
    if (p.ok()) params = std::move(*p);
    input.remove_prefix(nl + 1);
  }
  auto statements = ParseQuery(input, params ? &*params : nullptr);
  if (!statements.ok()) return 0;
  CompileContext ctx;
  ctx.database = "db";
  ctx.now_ns = 1'686'441'600'000'000'000;
  ctx.schema = [](const std::string&, const std::string& m) -> Result<std::optional<MeasurementSchema>> {
    if (m != "cpu" && m != "mem") return std::optional<MeasurementSchema>();
    MeasurementSchema s;
    s.tags = {"hostname", "region"};
    s.fields = {{"usage_user", ValueType::kFloat64}, {"n", ValueType::kInt64}, {"s", ValueType::kString}};
    return std::optional<MeasurementSchema>(std::move(s));
  };
  ctx.measurements = [](const std::string&) -> Result<std::vector<std::string>> {
    return std::vector<std::string>{"cpu", "mem"};
  };
  for (const Statement& st : *statements) {
    if (st.kind != Statement::Kind::kSelect) continue;
    auto compiled = CompileSelect(*st.select, ctx);
    if (!compiled.ok()) continue;
    for (const CompiledSelect& c : *compiled) {
      auto sql = query::ParseSql(c.sql);
      GNOMON_CHECK_MSG(sql.ok(), (c.sql + " : " + sql.status().message()).c_str());
    }
  }
  return 0;
}
