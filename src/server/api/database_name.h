// Database names as the HTTP API accepts them: 1-64 bytes of [A-Za-z0-9_-.], starting with a
// letter, digit or underscore (InfluxDB 3's rule, plus '.' and a leading '_' for v1 names such as
// "_internal"). Names become directory names in the data directory, so nothing else gets through.
#pragma once

#include <string_view>

#include "src/base/status.h"

namespace gnomon::server::api {

inline constexpr size_t kMaxDatabaseNameBytes = 64;

// OK, or InvalidArgument explaining what is wrong with `name`.
Status ValidateDatabaseName(std::string_view name);

}  // namespace gnomon::server::api
