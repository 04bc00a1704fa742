// GET|POST /query (InfluxDB 1.x) and /api/v3/query_influxql. `q` (and `db`, `epoch`) come from
// the URL or, for POST, from an application/x-www-form-urlencoded body. A malformed query is 400
// {"error":"error parsing query: ..."} and runs nothing; otherwise 200 with one result per
// statement, each carrying its own "error" when it failed, as InfluxDB does.
#include <algorithm>

#include "src/base/time_util.h"
#include "src/query/influxql/influxql_parser.h"
#include "src/server/api/error_writer.h"
#include "src/server/api/handlers.h"
#include "src/server/api/influxql_executor.h"
#include "src/server/http/json_writer.h"

namespace gnomon::server::api {
namespace {

// epoch=ns|n|u|µ|us|ms|s|m|h: integer timestamps in that unit; absent: RFC 3339 text.
Result<int64_t> EpochDivisor(std::string_view e) {
  if (e.empty()) return 0;
  if (e == "ns" || e == "n") return 1;
  if (e == "u" || e == "us" || e == "µ" || e == "µs") return 1'000;
  if (e == "ms") return 1'000'000;
  if (e == "s") return 1'000'000'000;
  if (e == "m") return 60'000'000'000;
  if (e == "h") return 3'600'000'000'000;
  return Status::InvalidArgument("invalid epoch \"" + std::string(e) + "\" (ns, u, ms, s, m, h)");
}

}  // namespace

void HandleQuery(ApiContext& ctx, const http::Request& request, const Caller& caller,
                 http::Response* response) {
  http::QueryParams form;
  std::string_view content_type = request.HeaderValue("Content-Type");
  if (request.method == http::Method::kPost &&
      content_type.substr(0, 33) == "application/x-www-form-urlencoded") {
    form = http::QueryParams::Parse(request.body);
  }
  auto param = [&](std::string_view name) {
    std::string_view v = request.query.GetOr(name, "");
    return v.empty() ? form.GetOr(name, "") : v;
  };
  std::string_view q = param("q");
  if (q.empty()) return WriteApiError(ApiDialect::kV1, 400, "missing required parameter \"q\"", response);
  auto divisor = EpochDivisor(param("epoch"));
  if (!divisor.ok()) return WriteApiError(ApiDialect::kV1, 400, divisor.status().message(), response);
  auto statements = query::influxql::ParseQuery(q);
  if (!statements.ok()) {
    return WriteApiError(ApiDialect::kV1, 400,
                         "error parsing query: " + statements.status().message(), response);
  }
  InfluxqlRequest req;
  req.database = std::string(param("db"));
  req.format.epoch_divisor = *divisor;
  req.now_ns = NowNanos();
  req.caller = &caller;
  // All statements are authorized before any runs, as InfluxDB 1.x does ("error authorizing query").
  for (const auto& stmt : *statements) {
    if (Status s = AuthorizeInfluxql(stmt, req.database, caller); !s.ok()) {
      return WriteApiError(ApiDialect::kV1, 403, "error authorizing query: " + s.message(), response);
    }
  }
  http::JsonWriter json;
  json.BeginObject().Key("results").BeginArray();
  for (size_t i = 0; i < statements->size(); ++i) {
    json.BeginObject().Key("statement_id").UInt(i);
    ExecuteInfluxql(ctx, (*statements)[i], req, &json);
    json.EndObject();
  }
  json.EndArray().EndObject();
  response->SetJson(200, json.Release());
}

}  // namespace gnomon::server::api
