#include "src/server/api/write_executor.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "src/base/logging.h"
#include "src/base/time_util.h"
#include "src/server/api/database_name.h"
#include "src/server/api/precision_detect.h"
#include "src/server/ingest/line_protocol.h"
#include "src/storage/write_batch.h"

namespace gnomon::server::api {
namespace {

constexpr size_t kMaxLineTextBytes = 200;

// Line `number` (1-based) of `body`, cut to kMaxLineTextBytes at a UTF-8 boundary. Only used on
// the error path, for rows the engine rejected (the parser reports its own lines' text).
std::string LineText(std::string_view body, uint32_t number) {
  for (uint32_t i = 1; i < number && !body.empty(); ++i) {
    size_t nl = body.find('\n');
    body = nl == std::string_view::npos ? std::string_view() : body.substr(nl + 1);
  }
  std::string_view line = body.substr(0, body.find('\n'));
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  if (line.size() > kMaxLineTextBytes) {
    size_t cut = kMaxLineTextBytes;
    while (cut > 0 && (static_cast<unsigned char>(line[cut]) & 0xC0) == 0x80) --cut;
    line = line.substr(0, cut);
  }
  return std::string(line);
}

void Fail(ApiContext& ctx, ApiDialect dialect, int status, std::string_view message,
          http::Response* response) {
  ctx.stats.write_errors.fetch_add(1, std::memory_order_relaxed);
  WriteApiError(dialect, status, message, response);
}

void FailEngine(ApiContext& ctx, const WriteParams& params, const Status& status,
                http::Response* response) {
  int http_status = HttpStatusFor(status);
  std::string message;
  switch (status.code()) {
    case Status::Code::kTypeConflict:
      message = "field type conflict: " + status.message();
      break;
    case Status::Code::kResourceExhausted:
      // InfluxDB 1.x's wording: load generators (TSBS) recognise it, back off and retry.
      message = "engine: cache maximum memory size exceeded (" + status.message() + ")";
      response->AddHeader("Retry-After", "1");
      break;
    case Status::Code::kTimeout:
      message = "timeout: " + status.message();
      break;
    default:
      message = status.message();
  }
  if (status.code() == Status::Code::kNoSpace || status.code() == Status::Code::kIOError) {
    // The WAL is reopened in the background (EngineImpl::ReopenWalAfterFailure): worth a retry.
    response->AddHeader("Retry-After", "1");
  }
  if (http_status >= 500) {
    GNOMON_LOG_ERROR("[api] write to database {} failed: {}", params.database, status.ToString());
  }
  Fail(ctx, params.dialect, http_status, message, response);
}

}  // namespace

void ExecuteWrite(ApiContext& ctx, const WriteParams& params, const http::Request& request,
                  http::Response* response) {
  ctx.stats.write_requests.fetch_add(1, std::memory_order_relaxed);
  Status name_ok = ValidateDatabaseName(params.database);
  if (!name_ok.ok()) return Fail(ctx, params.dialect, 400, name_ok.message(), response);

  ParseOptions options;
  options.precision = params.auto_precision ? DetectBodyPrecision(request.body) : params.precision;
  options.default_time_ns = request.receive_time_ns != 0 ? request.receive_time_ns : NowNanos();
  options.max_errors = ctx.max_line_errors;
  options.limits = ctx.line_limits;
  options.engine = ctx.engine;
  storage::WriteBatch batch(params.database);
  ParseResult parsed = ParseLineProtocol(request.body, options, &batch);

  std::vector<RejectedLine> rejected;
  rejected.reserve(parsed.errors.size());
  for (LineError& e : parsed.errors) {
    rejected.push_back({e.line, e.column, std::move(e.text), std::move(e.reason)});
  }
  size_t total_rejected = parsed.lines_rejected;
  if (total_rejected > 0 && !params.accept_partial) {
    ctx.stats.lines_rejected.fetch_add(total_rejected, std::memory_order_relaxed);
    ctx.stats.write_errors.fetch_add(1, std::memory_order_relaxed);
    return WriteLineErrors(params.dialect, false, rejected, total_rejected, response);
  }

  size_t written = 0;
  if (!batch.empty()) {
    storage::WriteOptions write_options;
    write_options.sync = params.sync;
    write_options.accept_partial = params.accept_partial;
    auto outcome = ctx.engine->Write(batch, write_options);
    if (!outcome.ok()) return FailEngine(ctx, params, outcome.status(), response);
    written = outcome->rows_written;
    for (const storage::RowError& e : outcome->rejected) {
      rejected.push_back({e.line, 0, LineText(request.body, e.line), e.reason});
    }
    total_rejected += outcome->rejected.size();
  }
  ctx.stats.rows_written.fetch_add(written, std::memory_order_relaxed);
  if (total_rejected > 0) {
    ctx.stats.lines_rejected.fetch_add(total_rejected, std::memory_order_relaxed);
    ctx.stats.write_errors.fetch_add(1, std::memory_order_relaxed);
    std::stable_sort(rejected.begin(), rejected.end(),
                     [](const RejectedLine& a, const RejectedLine& b) { return a.line < b.line; });
    if (rejected.size() > ctx.max_line_errors) rejected.resize(ctx.max_line_errors);
    return WriteLineErrors(params.dialect, true, rejected, total_rejected, response);
  }
  response->SetNoContent();
}

}  // namespace gnomon::server::api
