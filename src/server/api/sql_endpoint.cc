#include "src/server/api/sql_endpoint.h"

#include <string>

#include "src/server/api/error_writer.h"
#include "src/server/api/result_stream.h"
#include "src/server/http/query_params.h"

namespace gnomon::server::api {
namespace {

int SqlErrorStatus(const Status& s) {
  switch (s.code()) {
    case Status::Code::kNotFound:
      // An unknown database is 404; an unknown table or column is a bad query (400).
      return s.message().rfind("database ", 0) == 0 ? 404 : 400;
    case Status::Code::kTimeout: return 408;
    case Status::Code::kPermissionDenied: return 403;
    case Status::Code::kNoSpace: return 507;
    case Status::Code::kIOError:
    case Status::Code::kCorruption:
    case Status::Code::kInternal: return 500;
    default: return 400;
  }
}

// The statement as a log line shows it: one line, at most 200 bytes.
std::string Abbreviate(std::string_view sql) {
  constexpr size_t kMax = 200;
  std::string out(sql.substr(0, kMax));
  for (char& c : out) {
    if (c == '\n' || c == '\r' || c == '\t') c = ' ';
  }
  if (sql.size() > kMax) out += "...";
  return out;
}

}  // namespace

http::Handler MakeSqlHandler(query::QueryEngine* engine, ResultStreamLimits limits) {
  return [endpoint = MakeSqlEndpoint(engine, limits)](const http::Request& request,
                                                      http::Response* response) {
    endpoint(request, {}, response);
  };
}

SqlHandler MakeSqlEndpoint(query::QueryEngine* engine, ResultStreamLimits limits) {
  return [engine, limits](const http::Request& request, const query::AccessCheck& access,
                          http::Response* response) {
    std::string sql;
    if (auto q = request.query.Get("sql")) {
      sql = std::string(*q);
    } else if (!request.body.empty()) {
      std::string_view type = request.HeaderValue("Content-Type");
      if (type.rfind("application/x-www-form-urlencoded", 0) == 0) {
        http::QueryParams form = http::QueryParams::Parse(request.body);
        if (auto v = form.Get("sql")) sql = std::string(*v);
      } else {
        sql = std::string(request.body);
      }
    }
    if (sql.empty()) {
      WriteApiError(ApiDialect::kV1, 400, "missing SQL: pass it as sql=... or in the body", response);
      return;
    }
    query::QueryOptions options;
    if (auto db = request.query.Get("db")) options.database = std::string(*db);
    options.access_check = access;
    ResultFormat format = ResultFormat::kJson;
    if (auto f = request.query.Get("format")) {
      if (*f == "csv") {
        format = ResultFormat::kCsv;
      } else if (*f != "json") {
        WriteApiError(ApiDialect::kV1, 400, "unknown format '" + std::string(*f) + "' (json or csv)", response);
        return;
      }
    }
    EpochUnit epoch = EpochUnit::kNone;
    if (auto e = request.query.Get("epoch")) {
      if (*e == "ns" || *e == "n") epoch = EpochUnit::kNanosecond;
      else if (*e == "us" || *e == "u" || *e == "µs") epoch = EpochUnit::kMicrosecond;
      else if (*e == "ms") epoch = EpochUnit::kMillisecond;
      else if (*e == "s") epoch = EpochUnit::kSecond;
      else {
        WriteApiError(ApiDialect::kV1, 400, "unknown epoch '" + std::string(*e) + "' (ns, us, ms, s)", response);
        return;
      }
    }
    // The head if the answer streams; the producer replaces it when the result fits or fails early.
    response->SetText(200, format == ResultFormat::kCsv ? "text/csv; charset=utf-8" : "application/json",
                      "");
    response->stream = [engine, limits, sql = std::move(sql), options, format, epoch](
                           http::Response* response, http::ChunkSink* out) -> Status {
      ResultStream result(format, epoch, out, limits, engine->pool());
      Status s = engine->Execute(sql, options, &result);
      if (!result.streaming()) {
        if (!s.ok()) {
          WriteApiError(ApiDialect::kV1, SqlErrorStatus(s), s.message(), response);
        } else {
          response->body = result.TakeBuffer();
        }
        return Status::OK();
      }
      if (s.ok()) return result.Flush();
      // The client went away, or HEAD stopped the query once the status was known.
      if (result.sink_failed()) return s;
      // The 200 is out: the server cuts the body short (no last chunk) and logs this.
      return s.WithContext("query failed after its answer began streaming (" + Abbreviate(sql) + ")");
    };
  };
}

}  // namespace gnomon::server::api
