// The step from a request Boost.Beast has parsed to the Request handlers see: method, target,
// path, query parameters and headers, as views into the Beast message. Shared by the connection
// (http_session.cc) and the HTTP request fuzz target.
#pragma once

#include <boost/beast/core/string.hpp>
#include <boost/beast/http/message.hpp>
#include <boost/beast/http/string_body.hpp>

#include <string_view>

#include "src/server/http/http_message.h"

namespace gnomon::server::http {

Method ToMethod(boost::beast::http::verb verb);

inline std::string_view ToStringView(boost::beast::string_view s) { return std::string_view(s.data(), s.size()); }

// Fills *out from `msg` (all but the body and the receive time); the views stay valid while
// `msg` is unchanged.
void FillRequestHead(const boost::beast::http::request<boost::beast::http::string_body>& msg, Request* out);

// The Content-Encoding the body needs decoding from.
enum class BodyEncoding { kIdentity, kGzip, kUnsupported };
BodyEncoding EncodingOf(std::string_view content_encoding);

}  // namespace gnomon::server::http
