// TSBS's IoT queries in Gnomon SQL (bench::GenerateIotQueries), rewritten for SQLite over the
// same readings and diagnostics rows: TimescaleDB's microsecond time literals become integer
// nanoseconds, time_bucket integer arithmetic from TimescaleDB's origin (2000-01-03), age(a, b)
// a difference, and DISTINCT ON (name, driver) ... ORDER BY name, driver, time DESC (which SQLite
// lacks) the first row per truck by row_number().
#include <regex>

#include "test/oracle/oracle_queries.h"

namespace gnomon::oracle {
namespace {

constexpr int64_t kSec = 1000000000LL;
constexpr int64_t kTimescaleOrigin = 946857600LL * kSec;  // 2000-01-03T00:00:00Z

// Replaces every match of `re` by what `fn` makes of it.
template <typename Fn>
Result<std::string> ReplaceAll(const std::string& s, const std::regex& re, Fn fn) {
  std::string out;
  auto begin = s.cbegin();
  for (std::sregex_iterator it(s.begin(), s.end(), re), end; it != end; ++it) {
    out.append(begin, (*it)[0].first);
    GNOMON_ASSIGN_OR_RETURN(std::string r, fn(*it));
    out += r;
    begin = (*it)[0].second;
  }
  out.append(begin, s.cend());
  return out;
}

}  // namespace

Result<OracleQuery> TranslateIotQuery(const std::string& name, const std::string& gnomon_sql) {
  OracleQuery q;
  q.name = name;
  q.gnomon_sql = gnomon_sql;
  q.ordered = false;  // ORDER BY keys here do not order every row totally; compared as sets
  // breakdown-frequency orders each truck's ten-minute groups by time alone, but a truck's rows
  // without a model tag make a second group at the same time: a tie, which the two engines may
  // break differently. Both forms get the same tie-breaker.
  const std::string partial = "OVER (PARTITION BY name ORDER BY ten_minutes)";
  const std::string total = "OVER (PARTITION BY name ORDER BY ten_minutes, model NULLS LAST)";
  if (name.rfind("breakdown-frequency", 0) == 0 && q.gnomon_sql.find(partial) != std::string::npos) {
    q.gnomon_sql.replace(q.gnomon_sql.find(partial), partial.size(), total);
  }
  std::string s = q.gnomon_sql;
  // '2016-01-01 07:39:52.947779 +0000' -> nanoseconds.
  std::regex literal(R"('(\d{4})-(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d)\.(\d{6}) \+0000')");
  GNOMON_ASSIGN_OR_RETURN(s, ReplaceAll(s, literal, [](const std::smatch& m) -> Result<std::string> {
    auto n = [&](int i) { return std::stoi(m[i].str()); };
    return std::to_string(CivilToNanos(n(1), n(2), n(3), n(4), n(5), n(6), std::stoll(m[7].str()) * 1000));
  }));
  std::regex bucket(R"(time_bucket\('(\d+) (minutes|hours)', (\w+)\))");
  GNOMON_ASSIGN_OR_RETURN(s, ReplaceAll(s, bucket, [](const std::smatch& m) -> Result<std::string> {
    const int64_t width = std::stoll(m[1].str()) * (m[2].str() == "minutes" ? 60 : 3600) * kSec;
    const std::string x = m[3].str(), o = std::to_string(kTimescaleOrigin), w = std::to_string(width);
    return "((" + x + " - " + o + ") / " + w + " * " + w + " + " + o + ")";
  }));
  s = std::regex_replace(s, std::regex(R"(age\((\w+), (\w+)\))"), "($1 - $2)");
  std::regex distinct_on(R"(SELECT DISTINCT ON \(name, driver\) (.*?) FROM (\w+) WHERE (.*?) ORDER BY name, driver, time DESC)");
  s = std::regex_replace(s, distinct_on,
                         "SELECT $1 FROM (SELECT $1, row_number() OVER (PARTITION BY name, driver ORDER BY time DESC) "
                         "AS rn FROM $2 WHERE $3) WHERE rn = 1");
  if (s.find("DISTINCT ON") != std::string::npos || s.find("time_bucket") != std::string::npos ||
      s.find("+0000") != std::string::npos) {
    return Status::InvalidArgument("untranslated IoT query: " + s);
  }
  q.sqlite_sql = s;
  return q;
}

}  // namespace gnomon::oracle
