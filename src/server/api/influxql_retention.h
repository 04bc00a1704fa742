// InfluxQL's retention policies mapped onto Gnomon's retention: a database has one policy,
// "autogen", whose duration is the database's retention (DURATION INF: the server-wide
// --retention, which keeps everything unless set). CREATE of "autogen" succeeds when it matches,
// ALTER sets its duration, SHOW lists it; other names, a replication factor other than 1 and
// dropping "autogen" are refused with an error that says why.
#pragma once

#include <cstdint>
#include <string>

#include "src/query/influxql/influxql_ast.h"
#include "src/server/api/api_context.h"
#include "src/server/api/influxql_answer.h"

namespace gnomon::server::api {

inline constexpr const char* kRetentionPolicyName = "autogen";

// CREATE, ALTER and DROP RETENTION POLICY.
Status ChangeRetentionPolicy(ApiContext& ctx, const query::influxql::Statement& st);

// CREATE DATABASE ... WITH [REPLICATION n] [NAME p]: the one policy, with one copy.
Status CheckNewDatabasePolicy(const query::influxql::Statement& st);

// SHOW RETENTION POLICIES [ON db].
Status ShowRetentionPolicies(ApiContext& ctx, const std::string& database, InfluxAnswer* out);

// Go's time.Duration text, as InfluxDB shows durations: "0s", "1h0m0s", "1m30s", "500ms".
std::string GoDurationString(int64_t ns);

}  // namespace gnomon::server::api
