#include "src/server/api/sql_endpoint.h"

#include <string>

#include "src/server/api/error_writer.h"
#include "src/server/api/result_writer.h"
#include "src/server/http/query_params.h"

namespace gnomon::server::api {
namespace {

int SqlErrorStatus(const Status& s) {
  switch (s.code()) {
    case Status::Code::kNotFound:
      // An unknown database is 404; an unknown table or column is a bad query (400).
      return s.message().rfind("database ", 0) == 0 ? 404 : 400;
    case Status::Code::kTimeout: return 408;
    case Status::Code::kIOError:
    case Status::Code::kCorruption:
    case Status::Code::kInternal: return 500;
    default: return 400;
  }
}

}  // namespace

http::Handler MakeSqlHandler(query::QueryEngine* engine) {
  return [engine](const http::Request& request, http::Response* response) {
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
    std::string body;
    ResultWriter writer(format, epoch, &body);
    Status s = engine->Execute(sql, options, &writer);
    if (!s.ok()) {
      WriteApiError(ApiDialect::kV1, SqlErrorStatus(s), s.message(), response);
      return;
    }
    response->SetText(200, format == ResultFormat::kCsv ? "text/csv; charset=utf-8" : "application/json",
                      std::move(body));
  };
}

}  // namespace gnomon::server::api
