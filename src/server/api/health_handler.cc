// GET /health, in InfluxDB 2.x's shape. The server answers only once the engine is open, so a
// reachable /health means ready for writes and queries.
#include "src/server/api/handlers.h"
#include "src/server/http/json_writer.h"

namespace gnomon::server::api {

void HandleHealth(ApiContext& ctx, const http::Request& request, http::Response* response) {
  http::JsonWriter json;
  json.BeginObject()
      .Key("name").String("gnomon")
      .Key("message").String("ready for queries and writes")
      .Key("status").String("pass")
      .Key("checks").BeginArray().EndArray()
      .Key("version").String(ctx.version)
      .EndObject();
  response->SetJson(200, json.Release());
}

}  // namespace gnomon::server::api
