// GET|POST /query (InfluxDB 1.x) and /api/v3/query_influxql. `q` (and `db`, `epoch`, `params`,
// `chunked`, `chunk_size`) come from the URL or, for POST, from an application/x-www-form-urlencoded
// body. A malformed query or parameter set is 400 and runs nothing; otherwise 200 with one result
// per statement. As in InfluxDB, a failed statement carries its error and the ones after it are
// "not executed". JSON by default; one JSON document per piece with chunked=true; CSV when the
// client accepts application/csv or text/csv. Large answers stream.
#include <algorithm>
#include <charconv>
#include <memory>

#include "src/base/time_util.h"
#include "src/query/influxql/influxql_params.h"
#include "src/query/influxql/influxql_parser.h"
#include "src/server/api/error_writer.h"
#include "src/server/api/handlers.h"
#include "src/server/api/influxql_answer.h"
#include "src/server/api/influxql_executor.h"
#include "src/server/api/result_stream.h"

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

// Whether the Accept header names CSV among its media types.
bool AcceptsCsv(std::string_view accept) {
  while (!accept.empty()) {
    size_t comma = accept.find(',');
    std::string_view type = accept.substr(0, comma);
    type = type.substr(0, type.find(';'));
    while (!type.empty() && type.front() == ' ') type.remove_prefix(1);
    while (!type.empty() && type.back() == ' ') type.remove_suffix(1);
    if (type == "application/csv" || type == "text/csv") return true;
    if (comma == std::string_view::npos) break;
    accept.remove_prefix(comma + 1);
  }
  return false;
}

// chunk_size: a positive integer, else InfluxDB's default.
size_t ChunkSize(std::string_view text) {
  int64_t n = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
  if (ec != std::errc() || end != text.data() + text.size() || n <= 0) return 10'000;
  return static_cast<size_t>(n);
}

// A refusal before anything ran, in the answer's format (CSV: "error" over the message).
void Refuse(bool csv, int status, std::string_view message, http::Response* response) {
  if (!csv) return WriteApiError(ApiDialect::kV1, status, message, response);
  auto answer = MakeCsvAnswer({});
  answer->Error(message);
  response->SetText(status, "text/csv", std::move(answer->bytes()));
}

// What the streamed producer needs once the handler has returned.
struct QueryRun {
  ApiContext* ctx = nullptr;
  std::vector<query::influxql::Statement> statements;
  InfluxqlRequest req;
  Caller caller = Caller::Unrestricted();
  InfluxAnswerOptions options;
};

Status Produce(QueryRun& run, http::Response* response, http::ChunkSink* sink) {
  std::unique_ptr<InfluxAnswer> answer = InfluxAnswer::Make(run.options);
  // Held whole up to 1 MiB (then sent with a Content-Length), streamed past that, as /v1/sql's.
  AnswerBuffer sender(&answer->bytes(), sink, ResultStreamLimits{});
  run.req.caller = &run.caller;
  run.req.flush = [&] { return sender.MaybeSend(); };
  response->SetText(200, answer->content_type(), "");
  bool failed = false;
  for (size_t i = 0; i < run.statements.size(); ++i) {
    answer->BeginStatement(i);
    if (failed) {
      answer->Error("not executed");
    } else if (Status s = ExecuteInfluxql(*run.ctx, run.statements[i], run.req, answer.get()); !s.ok()) {
      if (sender.sink_failed()) return s;  // the client has gone (or HEAD): nobody reads the rest
      answer->Error(s.message());
      failed = true;
    }
    answer->EndStatement();
    GNOMON_RETURN_IF_ERROR(sender.MaybeSend());
  }
  answer->Finish();
  if (!sender.streaming()) {
    response->body = std::move(answer->bytes());
    return Status::OK();
  }
  return sender.Flush();
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
  auto run = std::make_shared<QueryRun>();
  const bool csv = AcceptsCsv(request.HeaderValue("Accept"));
  run->options.format = csv ? InfluxAnswerFormat::kCsv
                            : param("chunked") == "true" ? InfluxAnswerFormat::kChunkedJson : InfluxAnswerFormat::kJson;
  run->options.chunk_size = ChunkSize(param("chunk_size"));
  std::string_view q = param("q");
  if (q.empty()) return Refuse(csv, 400, "missing required parameter \"q\"", response);
  auto divisor = EpochDivisor(param("epoch"));
  if (!divisor.ok()) return Refuse(csv, 400, divisor.status().message(), response);
  run->options.epoch_divisor = *divisor;
  std::optional<query::influxql::BoundParams> params;
  if (std::string_view p = param("params"); !p.empty()) {
    auto parsed = query::influxql::ParseBoundParams(p);
    if (!parsed.ok()) return Refuse(csv, 400, parsed.status().message(), response);
    params = std::move(*parsed);
  }
  auto statements = query::influxql::ParseQuery(q, params ? &*params : nullptr);
  if (!statements.ok()) return Refuse(csv, 400, "error parsing query: " + statements.status().message(), response);
  run->req.database = std::string(param("db"));
  run->req.now_ns = NowNanos();
  // All statements are authorized before any runs, as InfluxDB 1.x does ("error authorizing query").
  for (const auto& stmt : *statements) {
    if (Status s = AuthorizeInfluxql(stmt, run->req.database, caller); !s.ok()) {
      return Refuse(csv, 403, "error authorizing query: " + s.message(), response);
    }
  }
  run->ctx = &ctx;
  run->statements = std::move(*statements);
  run->caller = caller;
  response->stream = [run](http::Response* response, http::ChunkSink* sink) { return Produce(*run, response, sink); };
}

}  // namespace gnomon::server::api
