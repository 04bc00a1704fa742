// Database names as the HTTP API accepts them: the storage engine's rule (src/storage/identifier.h),
// checked at the API so that a bad name is a 400 before anything else happens.
#pragma once

#include "src/storage/identifier.h"

namespace gnomon::server::api {

using storage::kMaxDatabaseNameBytes;
using storage::ValidateDatabaseName;

}  // namespace gnomon::server::api
