// GET|HEAD /ping, as InfluxDB 1.x: 204 with the version headers; ?verbose=true answers 200 with
// {"version":...} for clients that probe that way.
#include "src/server/api/handlers.h"
#include "src/server/http/json_writer.h"

namespace gnomon::server::api {

void HandlePing(ApiContext& ctx, const http::Request& request, http::Response* response) {
  response->AddHeader("X-Influxdb-Version", ctx.influx_version);
  response->AddHeader("X-Influxdb-Build", "OSS");
  response->AddHeader("X-Gnomon-Version", ctx.version);
  std::string_view verbose = request.query.GetOr("verbose", "");
  if (verbose == "true" || verbose == "1") {
    http::JsonWriter json;
    json.BeginObject().Key("version").String(ctx.influx_version).EndObject();
    response->SetJson(200, json.Release());
    return;
  }
  response->SetNoContent();
}

}  // namespace gnomon::server::api
