// Router: maps (method, exact path) to a named handler. HEAD falls back to the GET handler (the
// session then sends headers only). Unknown paths get 404, known paths with another method 405.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "src/server/http/http_message.h"

namespace gnomon::server::http {

// Writes an error answer in a route's own JSON dialect (InfluxDB v2 uses {"code","message"}).
using ErrorWriter = std::function<void(int status, std::string_view message, Response*)>;

// The default error body: {"error":"<message>"}.
void WriteDefaultError(int status, std::string_view message, Response* response);

class Router {
 public:
  // Registers `handler` for `method` requests to exactly `path`. `name` labels the route in
  // metrics ("write_v1"); `error_writer` (optional) formats transport errors the server answers
  // for this route itself (413, bad gzip). REQUIRES: not called once the server is serving.
  void Add(Method method, std::string path, std::string name, Handler handler,
           ErrorWriter error_writer = nullptr);

  // The route name a request would be counted under ("not_found" when none).
  std::string_view RouteName(Method method, std::string_view path) const;
  // Writes a transport-level error for a request to (method, path) in its route's dialect.
  void WriteError(Method method, std::string_view path, int status, std::string_view message,
                  Response* response) const;

  // Runs the matching handler (or writes the 404/405 answer) and returns the route's name, or
  // "not_found" / "method_not_allowed". Thread-safe: may run on many threads at once.
  std::string_view Dispatch(const Request& request, Response* response) const;

 private:
  struct Route {
    Method method;
    std::string path;
    std::string name;
    Handler handler;
    ErrorWriter error_writer;
  };
  const Route* Find(Method method, std::string_view path) const;

  std::vector<Route> routes_;  // few routes: a linear scan beats hashing
};

}  // namespace gnomon::server::http
