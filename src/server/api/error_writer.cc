#include "src/server/api/error_writer.h"

#include <fmt/format.h>

#include "src/server/http/json_writer.h"

namespace gnomon::server::api {

using http::JsonWriter;

std::string_view V2ErrorCode(int status) {
  switch (status) {
    case 400: return "invalid";
    case 401: return "unauthorized";
    case 403: return "forbidden";
    case 404: return "not found";
    case 405: return "method not allowed";
    case 413: return "request too large";
    case 415: return "unsupported media type";
    case 422: return "unprocessable entity";
    case 429: return "too many requests";
    case 501: return "not implemented";
    case 503: return "unavailable";
    default: return status >= 500 ? "internal error" : "invalid";
  }
}

void WriteApiError(ApiDialect dialect, int status, std::string_view message,
                   http::Response* response) {
  JsonWriter json;
  json.BeginObject();
  if (dialect == ApiDialect::kV2) {
    json.Key("code").String(V2ErrorCode(status)).Key("message").String(message);
  } else {
    json.Key("error").String(message);
  }
  json.EndObject();
  response->SetJson(status, json.Release());
}

int HttpStatusFor(const Status& status) {
  switch (status.code()) {
    case Status::Code::kOk: return 200;
    case Status::Code::kInvalidArgument:
    case Status::Code::kTypeConflict:
    case Status::Code::kOutOfRange:
    case Status::Code::kAlreadyExists: return 400;
    case Status::Code::kNotFound: return 404;
    case Status::Code::kPermissionDenied: return 403;
    case Status::Code::kUnsupported: return 501;
    case Status::Code::kAborted:
    case Status::Code::kIOError: return 503;  // the disk failed; the server heals and keeps reading
    case Status::Code::kNoSpace: return 507;
    case Status::Code::kResourceExhausted:  // 500: what InfluxDB 1.x answers, and what TSBS retries
    case Status::Code::kTimeout:
    case Status::Code::kCorruption:
    case Status::Code::kInternal: return 500;
  }
  return 500;
}

namespace {

std::string DescribeLine(const RejectedLine& l) {
  std::string where = l.column > 0 ? fmt::format("line {}, column {}", l.line, l.column)
                                   : fmt::format("line {}", l.line);
  return fmt::format("unable to parse '{}': {} ({})", l.text, l.reason, where);
}

void WriteLineObject(JsonWriter* json, const RejectedLine& l) {
  json->BeginObject().Key("line").UInt(l.line);
  if (l.column > 0) json->Key("column").UInt(l.column);
  json->Key("text").String(l.text).Key("reason").String(l.reason).EndObject();
}

// InfluxDB 3's per-line object: {"original_line","line_number","error_message"} (+ our column).
void WriteV3LineObject(JsonWriter* json, const RejectedLine& l) {
  json->BeginObject()
      .Key("original_line").String(l.text)
      .Key("line_number").UInt(l.line)
      .Key("error_message").String(l.reason);
  if (l.column > 0) json->Key("column").UInt(l.column);
  json->EndObject();
}

}  // namespace

void WriteLineErrors(ApiDialect dialect, bool partial, const std::vector<RejectedLine>& lines,
                     size_t total_rejected, http::Response* response) {
  JsonWriter json;
  json.BeginObject();
  if (dialect == ApiDialect::kV3) {
    if (partial) {
      json.Key("error").String("partial write of line protocol occurred");
      json.Key("data").BeginArray();
      for (const RejectedLine& l : lines) WriteV3LineObject(&json, l);
      json.EndArray();
    } else {
      json.Key("error").String("parsing failed for write_lp endpoint");
      json.Key("data");
      if (lines.empty()) {
        json.Null();
      } else {
        WriteV3LineObject(&json, lines.front());
      }
    }
  } else {
    // v1 and v2: one message listing every line (as InfluxDB does), plus the first line's
    // position as fields and the full list, so clients need not parse the message.
    std::string message = partial ? "partial write: " : "";
    for (size_t i = 0; i < lines.size(); ++i) {
      if (i > 0) message += '\n';
      message += DescribeLine(lines[i]);
    }
    if (total_rejected > lines.size()) {
      message += fmt::format("\n... and {} more rejected line(s)", total_rejected - lines.size());
    }
    if (!partial) message += fmt::format(" (nothing written; {} line(s) rejected)", total_rejected);
    if (dialect == ApiDialect::kV2) {
      json.Key("code").String("invalid").Key("message").String(message);
    } else {
      json.Key("error").String(message);
    }
    if (!lines.empty()) {
      const RejectedLine& first = lines.front();
      json.Key("line").UInt(first.line);
      if (first.column > 0) json.Key("column").UInt(first.column);
      json.Key("text").String(first.text).Key("reason").String(first.reason);
    }
    json.Key("rejected").UInt(total_rejected);
    json.Key("errors").BeginArray();
    for (const RejectedLine& l : lines) WriteLineObject(&json, l);
    json.EndArray();
  }
  json.EndObject();
  response->SetJson(400, json.Release());
}

}  // namespace gnomon::server::api
