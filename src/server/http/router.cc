#include "src/server/http/router.h"

#include <exception>

#include "src/base/logging.h"
#include "src/server/http/json_writer.h"

namespace gnomon::server::http {
void WriteDefaultError(int status, std::string_view message, Response* response) {
  JsonWriter json;
  json.BeginObject().Key("error").String(message).EndObject();
  response->SetJson(status, json.Release());
}

std::string_view MethodName(Method method) {
  switch (method) {
    case Method::kGet: return "GET";
    case Method::kHead: return "HEAD";
    case Method::kPost: return "POST";
    case Method::kPut: return "PUT";
    case Method::kDelete: return "DELETE";
    case Method::kOptions: return "OPTIONS";
    case Method::kOther: return "OTHER";
  }
  return "OTHER";
}

void Router::Add(Method method, std::string path, std::string name, Handler handler,
                 ErrorWriter error_writer) {
  routes_.push_back(
      {method, std::move(path), std::move(name), std::move(handler), std::move(error_writer)});
}

std::string_view Router::RouteName(Method method, std::string_view path) const {
  const Route* route = Find(method, path);
  return route == nullptr ? std::string_view("not_found") : std::string_view(route->name);
}

void Router::WriteError(Method method, std::string_view path, int status,
                        std::string_view message, Response* response) const {
  const Route* route = Find(method, path);
  if (route != nullptr && route->error_writer) {
    route->error_writer(status, message, response);
  } else {
    WriteDefaultError(status, message, response);
  }
}

const Router::Route* Router::Find(Method method, std::string_view path) const {
  for (const Route& route : routes_) {
    if (route.method == method && route.path == path) return &route;
  }
  if (method == Method::kHead) return Find(Method::kGet, path);
  return nullptr;
}

std::string_view Router::Dispatch(const Request& request, Response* response) const {
  const Route* route = Find(request.method, request.path);
  if (route == nullptr) {
    std::string allow;
    for (const Route& r : routes_) {
      if (r.path != request.path) continue;
      if (!allow.empty()) allow += ", ";
      allow += MethodName(r.method);
      if (r.method == Method::kGet) allow += ", HEAD";
    }
    if (allow.empty()) {
      WriteDefaultError(404, "not found: " + std::string(request.path), response);
      return "not_found";
    }
    WriteDefaultError(405,
                      "method " + std::string(MethodName(request.method)) + " not allowed for " +
                          std::string(request.path),
                      response);
    response->AddHeader("Allow", allow);
    return "method_not_allowed";
  }
  try {
    route->handler(request, response);
  } catch (const std::exception& e) {
    GNOMON_LOG_ERROR("[http] handler {} threw: {}", route->name, e.what());
    response->headers.clear();
    response->stream = nullptr;
    WriteError(request.method, request.path, 500, std::string("internal error: ") + e.what(),
               response);
  } catch (...) {
    GNOMON_LOG_ERROR("[http] handler {} threw a non-standard exception", route->name);
    response->headers.clear();
    response->stream = nullptr;
    WriteError(request.method, request.path, 500, "internal error", response);
  }
  return route->name;
}

}  // namespace gnomon::server::http
