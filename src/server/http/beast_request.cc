#include "src/server/http/beast_request.h"

#include <boost/beast/core/string.hpp>

namespace gnomon::server::http {
namespace beast = boost::beast;
namespace bhttp = boost::beast::http;


Method ToMethod(bhttp::verb verb) {
  switch (verb) {
    case bhttp::verb::get: return Method::kGet;
    case bhttp::verb::head: return Method::kHead;
    case bhttp::verb::post: return Method::kPost;
    case bhttp::verb::put: return Method::kPut;
    case bhttp::verb::delete_: return Method::kDelete;
    case bhttp::verb::options: return Method::kOptions;
    default: return Method::kOther;
  }
}

void FillRequestHead(const bhttp::request<bhttp::string_body>& msg, Request* out) {
  out->method = ToMethod(msg.method());
  out->target = ToStringView(msg.target());
  size_t q = out->target.find('?');
  out->path = out->target.substr(0, q);
  out->query = q == std::string_view::npos ? QueryParams() : QueryParams::Parse(out->target.substr(q + 1));
  out->headers.clear();
  for (const auto& field : msg) out->headers.push_back({ToStringView(field.name_string()), ToStringView(field.value())});
}

BodyEncoding EncodingOf(std::string_view encoding) {
  if (beast::iequals(encoding, "gzip") || beast::iequals(encoding, "x-gzip")) return BodyEncoding::kGzip;
  if (encoding.empty() || beast::iequals(encoding, "identity")) return BodyEncoding::kIdentity;
  return BodyEncoding::kUnsupported;
}

}  // namespace gnomon::server::http
