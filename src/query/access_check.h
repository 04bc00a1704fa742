// AccessCheck: how the caller of a query says which databases it may read or change (the
// server's API tokens); the engine asks it before it touches a database.
#pragma once

#include <functional>
#include <string>

#include "src/base/status.h"

namespace gnomon::query {

// Asked before a statement reads (write = false) or changes (write = true) a database; a non-OK
// answer (PermissionDenied) ends the statement with it, before anything about the database —
// even whether it exists — is looked at. SHOW DATABASES lists only the readable ones.
using AccessCheck = std::function<Status(const std::string& database, bool write)>;

}  // namespace gnomon::query
