// Random join, subquery and set-operation queries for the oracle: one set of choices rendered for
// Gnomon and for SQLite (3.39+ has RIGHT and FULL joins). Shapes: joins of per-tag aggregates
// (every join kind, equality and inequality conditions), row-level self-joins on host and a time
// shift, [NOT] IN and [NOT] EXISTS subqueries (uncorrelated and correlated), correlated scalar
// aggregates, LATERAL top-n per host, and UNION / INTERSECT / EXCEPT [ALL] of tag values. Answers are compared as sets
// unless the query orders them totally.
#include "test/oracle/oracle_queries.h"

namespace gnomon::oracle {
namespace {

constexpr int64_t kSec = 1000000000LL;

std::string JoinWith(const std::vector<std::string>& parts, const std::string& sep) {
  std::string s;
  for (size_t i = 0; i < parts.size(); ++i) s += (i ? sep : "") + parts[i];
  return s;
}

// The same text for both engines: filters of oracle_queries.cc are written in the common subset
// (no time literals) when they touch only tags and fields.
std::string Where(const std::vector<std::string>& parts) {
  return parts.empty() ? "" : " WHERE " + JoinWith(parts, " AND ");
}

}  // namespace

OracleQuery RandomQueryGenerator::JoinQuery(int index) {
  OracleQuery q;
  q.name = "join #" + std::to_string(index);
  q.now_ns = data_.config().end_ns;
  const auto& fields = data_.field_names();
  static const std::vector<std::string> kKeys = {"hostname", "hostname", "region", "datacenter", "rack", "os"};
  static const std::vector<std::string> kAggs = {"max", "min", "sum", "count", "avg"};
  // Filters over one table, each written once for both engines (no time literals in these).
  auto filters = [&](double tag, double field) {
    std::vector<std::string> g, s;
    if (Chance(tag)) TagFilter(&g, &s);
    if (Chance(field)) FieldFilter(&g, &s);
    return g;
  };
  const int shape = Uniform(0, 7);
  std::string sql, sqlite;
  if (shape <= 1) {
    // Two per-key aggregates joined on the key (or compared, shape 1).
    const std::string k = Pick(kKeys);
    const std::string a1 = Pick(kAggs), a2 = Pick(kAggs);
    const std::string f1 = Pick(fields), f2 = Pick(fields);
    // Sometimes both sides sorted by the key (a merge join where the join kind allows).
    const std::string order = Chance(0.3) ? " ORDER BY k" : "";
    const std::string left = "(SELECT " + k + " AS k, " + a1 + "(" + f1 + ") AS v FROM cpu" + Where(filters(0.6, 0.5)) +
                             " GROUP BY " + k + order + ")";
    const std::string right = "(SELECT " + k + " AS k, " + a2 + "(" + f2 + ") AS w FROM cpu" +
                              Where(filters(0.6, 0.5)) + " GROUP BY " + k + order + ")";
    static const std::vector<std::string> kJoins = {"JOIN", "LEFT JOIN", "RIGHT JOIN", "FULL JOIN", "INNER JOIN"};
    const std::string join = shape == 0 ? Pick(kJoins) : "JOIN";
    std::string on = "a.k = b.k";
    if (shape == 1) on = Chance(0.5) ? "a.v > b.w" : "a.k <> b.k AND a.v < b.w + " + std::to_string(Uniform(0, 50));
    if (shape == 0 && Chance(0.3)) on += " AND b.w > " + std::to_string(Uniform(0, 60));
    const bool aggregate_out = Chance(0.3);
    if (aggregate_out) {
      sql = "SELECT count(*) AS n, count(b.k) AS nb, sum(a.v) AS sv FROM " + left + " a " + join + " " + right + " b ON " + on;
    } else {
      sql = "SELECT a.k, b.k AS bk, a.v, b.w FROM " + left + " a " + join + " " + right + " b ON " + on;
    }
    sqlite = sql;
  } else if (shape == 2) {
    // Row-level self-join: each row with the same host's row `shift` later.
    const std::string host = Pick(data_.TagValues("hostname"));
    const int shift = Uniform(0, 6) * 10;
    const std::string f1 = Pick(fields), f2 = Pick(fields);
    static const std::vector<std::string> kJoins = {"JOIN", "LEFT JOIN"};
    const std::string join = Pick(kJoins);
    const std::string g_on = "a.hostname = b.hostname AND b.time = a.time + INTERVAL '" + std::to_string(shift) + " seconds'";
    const std::string s_on = "a.hostname = b.hostname AND b.time = a.time + " + std::to_string(shift * kSec);
    const std::string where = " WHERE a.hostname = '" + host + "'" +
                              (Chance(0.5) ? " AND a." + f1 + " > " + std::to_string(Uniform(0, 90)) : "");
    const std::string items = "SELECT count(*) AS n, count(b." + f2 + ") AS nb, sum(b." + f2 + " - a." + f1 + ") AS d, max(b." + f2 + ") AS m";
    sql = items + " FROM cpu a " + join + " cpu b ON " + g_on + where;
    sqlite = items + " FROM cpu a " + join + " cpu b ON " + s_on + where;
  } else if (shape == 3) {
    // Hosts picked by an uncorrelated IN / NOT IN subquery.
    const std::string f = Pick(fields);
    const std::string inner = "SELECT hostname FROM cpu WHERE " + f + " > " + std::to_string(Uniform(80, 99));
    const std::string op = Chance(0.5) ? " IN " : " NOT IN ";
    sql = "SELECT hostname, count(*) AS n, max(" + Pick(fields) + ") AS m FROM cpu WHERE hostname" + op + "(" + inner +
          ") GROUP BY hostname";
    sqlite = sql;
  } else if (shape == 4) {
    // Correlated [NOT] EXISTS on the same host and time.
    const std::string f = Pick(fields), g = Pick(fields);
    const std::string host_filter = Chance(0.5) ? " AND c.hostname = '" + Pick(data_.TagValues("hostname")) + "'" : "";
    const std::string ex = Chance(0.5) ? "EXISTS" : "NOT EXISTS";
    sql = "SELECT count(*) AS n, sum(c." + g + ") AS s FROM cpu c WHERE " + ex +
          " (SELECT 1 FROM cpu d WHERE d.hostname = c.hostname AND d.time = c.time AND d." + f + " > " +
          std::to_string(Uniform(10, 90)) + ")" + host_filter;
    sqlite = sql;
  } else if (shape == 5) {
    // Each host's rows at its maximum of a field (a correlated scalar aggregate).
    // SQLite runs a correlated subquery per row: it gets the equivalent join instead.
    const std::string f = Pick(fields);
    const std::string agg = Chance(0.5) ? "max" : "min";
    const bool by_region = Chance(0.5);
    sql = "SELECT hostname, count(*) AS n FROM cpu c WHERE " + f + " = (SELECT " + agg + "(" + f +
          ") FROM cpu d WHERE d.hostname = c.hostname" + (by_region ? " AND d.region = c.region" : "") +
          ") GROUP BY hostname";
    sqlite = "SELECT c.hostname, count(*) AS n FROM cpu c JOIN (SELECT hostname AS h, region AS r, " + agg + "(" + f +
             ") AS m FROM cpu GROUP BY hostname" + (by_region ? ", region" : "") + ") d ON d.h = c.hostname" +
             (by_region ? " AND d.r = c.region" : "") + " WHERE c." + f + " = d.m GROUP BY c.hostname";
  } else if (shape == 7) {
    // LATERAL: each host's newest n rows over a threshold; SQLite numbers the rows itself.
    std::vector<std::string> g, unused;
    TagFilter(&g, &unused);
    const std::string f = Pick(fields);
    const std::string n = std::to_string(Uniform(1, 5));
    const std::string cut = std::to_string(Uniform(0, 90));
    const std::string hosts = "(SELECT DISTINCT hostname FROM cpu WHERE " + g[0] + ") h";
    sql = "SELECT h.hostname, l.time, l." + f + " FROM " + hosts + " " + (Chance(0.5) ? "LEFT " : "") +
          "JOIN LATERAL (SELECT time, " + f + " FROM cpu c WHERE c.hostname = h.hostname AND " + f + " > " + cut +
          " ORDER BY time DESC LIMIT " + n + ") l ON true";
    const bool left = sql.find("LEFT JOIN") != std::string::npos;
    sqlite = "SELECT h.hostname, l.time, l." + f + " FROM " + hosts + (left ? " LEFT" : "") + " JOIN (SELECT hostname AS hh, time, " +
             f + " FROM (SELECT hostname, time, " + f + ", row_number() OVER (PARTITION BY hostname ORDER BY time DESC) AS rn "
             "FROM cpu WHERE " + f + " > " + cut + ") WHERE rn <= " + n + ") l ON l.hh = h.hostname";
  } else {
    // A set operation over tag values.
    const std::string k = Pick(kKeys);
    static const std::vector<std::string> kOps = {"UNION", "UNION ALL", "INTERSECT", "EXCEPT"};
    const std::string op = Pick(kOps);
    const std::string a = "SELECT " + k + " FROM cpu WHERE " + Pick(fields) + " > " + std::to_string(Uniform(50, 99));
    const std::string b = "SELECT " + k + " FROM cpu WHERE " + Pick(fields) + " < " + std::to_string(Uniform(1, 50));
    if (op == "UNION ALL") {
      sql = "SELECT " + k + ", count(*) AS n FROM (" + a + " UNION ALL " + b + ") u GROUP BY " + k;
    } else {
      sql = a + " " + op + " " + b;
    }
    sqlite = sql;
  }
  q.gnomon_sql = sql;
  q.sqlite_sql = sqlite;
  return q;
}

}  // namespace gnomon::oracle
