// The write path shared by /write (v1), /api/v2/write and /api/v3/write_lp: parse the body's line
// protocol into a WriteBatch, apply it to the engine, answer 204 or the dialect's error.
#pragma once

#include <string>

#include "src/server/api/api_context.h"
#include "src/server/api/error_writer.h"
#include "src/server/http/http_message.h"
#include "src/server/ingest/precision.h"

namespace gnomon::server::api {

struct WriteParams {
  ApiDialect dialect = ApiDialect::kV1;
  std::string database;
  Precision precision = Precision::kNanosecond;
  bool auto_precision = false;  // v3 precision=auto: judged from the body (precision_detect.h)
  // Keep the good lines when some are bad (v3 default). Otherwise all-or-nothing.
  bool accept_partial = false;
  bool sync = true;  // false: acknowledge before the WAL fsync (v3 no_sync=true)
};

// Runs one write. Answers:
//   204  every line stored;
//   400  bad line protocol or a field type conflict (nothing stored, or with accept_partial the
//        good lines stored and the bad ones listed), invalid database name;
//   500  engine failure (a full memtable budget answers with InfluxDB's back-pressure phrase,
//        which TSBS's loader retries), 503 while shutting down.
void ExecuteWrite(ApiContext& ctx, const WriteParams& params, const http::Request& request,
                  http::Response* response);

}  // namespace gnomon::server::api
