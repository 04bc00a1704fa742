// POST /api/v3/write_lp (InfluxDB 3). Defaults follow InfluxDB 3 Core: precision=auto,
// accept_partial=true, no_sync=false.
#include <optional>

#include "src/server/api/handlers.h"
#include "src/server/api/write_executor.h"

namespace gnomon::server::api {
namespace {

std::optional<bool> ParseBool(std::string_view text) {
  auto eq = [&](std::string_view word) {
    if (text.size() != word.size()) return false;
    for (size_t i = 0; i < text.size(); ++i) {
      char c = text[i];
      if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
      if (c != word[i]) return false;
    }
    return true;
  };
  if (eq("true") || text == "1") return true;
  if (eq("false") || text == "0") return false;
  return std::nullopt;
}

// Reads an optional boolean parameter into *out; false (after answering 400) when malformed.
bool BoolParam(const http::Request& request, std::string_view name, bool* out,
               http::Response* response) {
  auto text = request.query.Get(name);
  if (!text || text->empty()) return true;
  auto value = ParseBool(*text);
  if (!value) {
    WriteApiError(ApiDialect::kV3, 400,
                  "invalid " + std::string(name) + " value '" + std::string(*text) +
                      "': expected true or false",
                  response);
    return false;
  }
  *out = *value;
  return true;
}

}  // namespace

void HandleWriteV3(ApiContext& ctx, const http::Request& request, http::Response* response) {
  WriteParams params;
  params.dialect = ApiDialect::kV3;
  params.database = std::string(request.query.GetOr("db", ""));
  if (params.database.empty()) {
    return WriteApiError(ApiDialect::kV3, 400, "database is required", response);
  }
  std::string_view precision = request.query.GetOr("precision", "auto");
  if (precision.empty() || precision == "auto") {
    params.auto_precision = true;
  } else if (precision == "nanosecond") {
    params.precision = Precision::kNanosecond;
  } else if (precision == "microsecond") {
    params.precision = Precision::kMicrosecond;
  } else if (precision == "millisecond") {
    params.precision = Precision::kMillisecond;
  } else if (precision == "second") {
    params.precision = Precision::kSecond;
  } else {
    auto short_form = ParsePrecision(precision, /*allow_v1_units=*/false);
    if (!short_form.ok()) {
      return WriteApiError(ApiDialect::kV3, 400,
                           "invalid precision '" + std::string(precision) +
                               "': expected auto, nanosecond, microsecond, millisecond or second",
                           response);
    }
    params.precision = *short_form;
  }
  params.accept_partial = true;
  if (!BoolParam(request, "accept_partial", &params.accept_partial, response)) return;
  bool no_sync = false;
  if (!BoolParam(request, "no_sync", &no_sync, response)) return;
  params.sync = !no_sync;
  ExecuteWrite(ctx, params, request, response);
}

}  // namespace gnomon::server::api
