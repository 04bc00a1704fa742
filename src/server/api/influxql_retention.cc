#include "src/server/api/influxql_retention.h"

#include <vector>

namespace gnomon::server::api {
namespace {

using query::influxql::Statement;

constexpr int64_t kHour = 3'600'000'000'000;
constexpr int64_t kDay = 24 * kHour;

// InfluxDB's shard group duration for a retention duration (its defaults; Gnomon's partitions
// are its own, so this is only shown).
int64_t ShardGroupDuration(int64_t retention_ns) {
  if (retention_ns == 0 || retention_ns > 180 * kDay) return 7 * kDay;
  if (retention_ns >= 2 * kDay) return kDay;
  return kHour;
}

Status CheckReplication(const Statement& st) {
  if (st.replication <= 1) return Status::OK();
  return Status::Unsupported("replication factor " + std::to_string(st.replication) +
                             " is not supported: Gnomon keeps one copy (REPLICATION 1)");
}

Status CheckOptions(const Statement& st) {
  GNOMON_RETURN_IF_ERROR(CheckReplication(st));
  if (st.duration_ns > 0 && st.duration_ns < kHour) {
    return Status::InvalidArgument("retention policy duration must be at least 1h0m0s");
  }
  return Status::OK();
}

Status NotTheOnePolicy(const Statement& st) {
  return Status::Unsupported("a database has one retention policy here, \"" + std::string(kRetentionPolicyName) +
                             "\" (its duration is the database's retention): use ALTER RETENTION POLICY " +
                             kRetentionPolicyName + " ON " + st.database + " DURATION ..., not \"" + st.name + "\"");
}

}  // namespace

Status CheckNewDatabasePolicy(const Statement& st) {
  if (!st.name.empty() && st.name != kRetentionPolicyName) return NotTheOnePolicy(st);
  return CheckReplication(st);
}

Status ChangeRetentionPolicy(ApiContext& ctx, const Statement& st) {
  GNOMON_ASSIGN_OR_RETURN(storage::DatabaseInfo info, ctx.engine->DescribeDatabase(st.database));
  const bool ours = st.name == kRetentionPolicyName;
  switch (st.kind) {
    case Statement::Kind::kCreateRetentionPolicy: {
      if (!ours) return NotTheOnePolicy(st);
      GNOMON_RETURN_IF_ERROR(CheckOptions(st));
      // As in InfluxDB: creating the policy that exists succeeds only with its own settings.
      if (st.duration_ns != info.options.retention_ns) return Status::AlreadyExists("retention policy already exists");
      return Status::OK();
    }
    case Statement::Kind::kAlterRetentionPolicy: {
      if (!ours) return Status::NotFound("retention policy not found: " + st.name);
      GNOMON_RETURN_IF_ERROR(CheckOptions(st));
      if (st.duration_ns < 0 || st.duration_ns == info.options.retention_ns) return Status::OK();
      storage::DatabaseOptions options = info.options;
      options.retention_ns = st.duration_ns;
      return ctx.engine->AlterDatabase(st.database, options);
    }
    case Statement::Kind::kDropRetentionPolicy:
      if (!ours) return Status::OK();  // dropping a missing policy succeeds, as in InfluxDB
      return Status::Unsupported("the database's one retention policy, \"" + std::string(kRetentionPolicyName) +
                                 "\", cannot be dropped: DROP DATABASE " + st.database +
                                 " removes the database and its data");
    default: return Status::Internal("not a retention policy statement");
  }
}

Status ShowRetentionPolicies(ApiContext& ctx, const std::string& database, InfluxAnswer* out) {
  GNOMON_ASSIGN_OR_RETURN(storage::DatabaseInfo info, ctx.engine->DescribeDatabase(database));
  const int64_t d = info.effective_retention_ns;
  const std::vector<std::string> columns = {"name", "duration", "shardGroupDuration", "replicaN", "default"};
  out->BeginSeries(nullptr, {}, {}, columns);
  out->BeginRow();
  out->String(kRetentionPolicyName);
  out->String(GoDurationString(d));
  out->String(GoDurationString(ShardGroupDuration(d)));
  out->Int(1);
  out->Bool(true);
  out->EndRow();
  out->EndSeries();
  return Status::OK();
}

std::string GoDurationString(int64_t ns) {
  if (ns == 0) return "0s";
  std::string sign = ns < 0 ? "-" : "";
  uint64_t u = ns < 0 ? static_cast<uint64_t>(-(ns + 1)) + 1 : static_cast<uint64_t>(ns);
  // Under a second: one unit with a fraction (1.5ms); otherwise h, m and s with fractional seconds.
  auto fraction = [](uint64_t v, uint64_t unit) {
    std::string s = std::to_string(v / unit);
    uint64_t rest = v % unit;
    if (rest == 0) return s;
    std::string digits = std::to_string(rest + unit).substr(1);  // leading zeros kept
    while (!digits.empty() && digits.back() == '0') digits.pop_back();
    return s + "." + digits;
  };
  if (u < 1'000) return sign + std::to_string(u) + "ns";
  if (u < 1'000'000) return sign + fraction(u, 1'000) + "µs";
  if (u < 1'000'000'000) return sign + fraction(u, 1'000'000) + "ms";
  const uint64_t h = u / kHour, m = u % kHour / 60'000'000'000, s = u % 60'000'000'000;
  std::string out = sign;
  if (h > 0) out += std::to_string(h) + "h";
  if (h > 0 || m > 0) out += std::to_string(m) + "m";
  return out + fraction(s, 1'000'000'000) + "s";
}

}  // namespace gnomon::server::api
