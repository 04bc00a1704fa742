// The benchmark clients' request and answer messages in Beast's types, shared by the blocking and
// the event-loop client. Include only from their .cc files: it brings in Beast.
#pragma once

#include <boost/beast/http.hpp>

#include <optional>
#include <string>

#include "src/bench/http_client.h"
#include "src/bench/url.h"

namespace gnomon::bench {

using BeastRequest = boost::beast::http::request<boost::beast::http::span_body<const char>>;
using BeastResponseParser = boost::beast::http::response_parser<boost::beast::http::string_body>;

// `request` as a kept-alive HTTP/1.1 message to `url` (target: the URL's base path and the
// request's); the body is a view of request.body.
inline void BuildBeastRequest(const Url& url, const HttpRequest& request, const std::string& target,
                              BeastRequest* out) {
  namespace http = boost::beast::http;
  *out = {};
  out->method(request.method == "GET"      ? http::verb::get
              : request.method == "DELETE" ? http::verb::delete_
                                           : http::verb::post);
  out->target(target);
  out->version(11);
  out->set(http::field::host, url.host + ":" + url.port);
  out->set(http::field::user_agent, "gnomon-bench");
  if (!request.content_type.empty()) out->set(http::field::content_type, request.content_type);
  if (!request.content_encoding.empty()) out->set(http::field::content_encoding, request.content_encoding);
  if (!request.authorization.empty()) out->set(http::field::authorization, request.authorization);
  out->body() = boost::span<const char>(request.body.data(), request.body.size());
  if (out->method() == http::verb::post || !request.body.empty()) out->prepare_payload();
  out->keep_alive(true);
}

// A parser for one answer of any size, reading into `spare` (emptied, its capacity kept).
inline void ResetAnswerParser(std::string* spare, std::optional<BeastResponseParser>* parser) {
  parser->emplace();
  (*parser)->body_limit(boost::none);  // answers (e.g. lastpoint over many hosts) can be large
  spare->clear();
  (*parser)->get().body().swap(*spare);
}

// The parsed answer's status, content type and body (moved out).
inline void TakeAnswer(BeastResponseParser* parser, HttpResponse* response) {
  auto& res = parser->get();
  response->status = static_cast<int>(res.result_int());
  response->content_type = std::string(res[boost::beast::http::field::content_type]);
  response->body = std::move(res.body());
}

}  // namespace gnomon::bench
