// Error bodies in the JSON dialect of each InfluxDB API generation:
//   v1 (/write, /query):      {"error":"..."}
//   v2 (/api/v2/write):       {"code":"invalid","message":"..."}
//   v3 (/api/v3/write_lp):    {"error":"...","data":...}
// Line-protocol rejections add where each bad line is (line, column, text, reason).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "src/base/status.h"
#include "src/server/http/http_message.h"

namespace gnomon::server::api {

enum class ApiDialect { kV1, kV2, kV3 };

// The InfluxDB v2 "code" string for an HTTP status ("invalid", "not found", ...).
std::string_view V2ErrorCode(int status);

// A plain error: {"error":message} (v1, v3) or {"code":...,"message":message} (v2).
void WriteApiError(ApiDialect dialect, int status, std::string_view message,
                   http::Response* response);

// The HTTP status for an engine or request Status (400 bad input, 404, 413, 500 I/O ...).
int HttpStatusFor(const Status& status);

struct RejectedLine {
  uint32_t line = 0;    // 1-based
  uint32_t column = 0;  // 1-based; 0 when unknown (engine-side rejections)
  std::string text;     // the line as sent (possibly truncated)
  std::string reason;
};

// 400 listing rejected lines. `partial`: the request accepted partial writes, so its good lines
// were stored (v3 accept_partial); otherwise nothing was. `total_rejected` may exceed
// lines.size() when the list was capped.
void WriteLineErrors(ApiDialect dialect, bool partial, const std::vector<RejectedLine>& lines,
                     size_t total_rejected, http::Response* response);

}  // namespace gnomon::server::api
