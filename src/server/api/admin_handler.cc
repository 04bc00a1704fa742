// POST /v1/admin/flush and /v1/admin/compact: an operator (or a benchmark measuring "after flush
// and compaction") asks for memtables to be written out now, or for every partition's segments
// to be merged into one. Both answer when the work is done, with how long it took.
#include <chrono>

#include "src/server/api/error_writer.h"
#include "src/server/api/handlers.h"
#include "src/server/http/json_writer.h"

namespace gnomon::server::api {
namespace {

template <typename Work>
void RunMaintenance(ApiContext& ctx, std::string_view what, Work work, http::Response* response) {
  if (ctx.engine == nullptr) {
    WriteApiError(ApiDialect::kV1, 503, "no storage engine", response);
    return;
  }
  const auto start = std::chrono::steady_clock::now();
  const Status s = work(*ctx.engine);
  const int64_t elapsed_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                                 std::chrono::steady_clock::now() - start)
                                 .count();
  if (!s.ok()) {
    WriteApiError(ApiDialect::kV1, HttpStatusFor(s), std::string(what) + " failed: " + s.ToString(),
                  response);
    return;
  }
  storage::EngineStats stats = ctx.engine->Stats();
  http::JsonWriter json;
  json.BeginObject()
      .Key("status").String("ok")
      .Key("operation").String(what)
      .Key("elapsed_ms").Int(elapsed_ms)
      .Key("segment_files").UInt(stats.segment_files)
      .Key("damaged_segments").UInt(stats.damaged_segments)
      .Key("segment_bytes").UInt(stats.segment_bytes)
      .EndObject();
  response->SetJson(200, json.Release());
}

}  // namespace

void HandleAdminFlush(ApiContext& ctx, const http::Request&, http::Response* response) {
  RunMaintenance(ctx, "flush", [](storage::Engine& e) { return e.Flush(); }, response);
}

void HandleAdminCompact(ApiContext& ctx, const http::Request&, http::Response* response) {
  RunMaintenance(ctx, "compact", [](storage::Engine& e) { return e.Compact(); }, response);
}

void HandleAdminRetention(ApiContext& ctx, const http::Request&, http::Response* response) {
  RunMaintenance(ctx, "retention", [](storage::Engine& e) { return e.ApplyRetention(); }, response);
}

}  // namespace gnomon::server::api
