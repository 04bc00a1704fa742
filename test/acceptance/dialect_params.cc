#include "test/acceptance/dialect_params.h"

#include <algorithm>
#include <regex>

#include "src/base/time_util.h"
#include "src/query/parser/time_literal.h"

namespace gnomon::acceptance {
namespace {

constexpr int64_t kStepNs = 10LL * 1'000'000'000;

// `time >= '...'` / `time < '...'`, the only two bound shapes TSBS's devops queries use.
const std::regex& BoundRegex() {
  static const std::regex re(R"(\btime (>=|<) '([^']*)')");
  return re;
}

Result<TimeBound> ParseBound(const std::string& text) {
  static const std::regex re(R"(^(\d{4}-\d\d-\d\d)[T ](\d\d:\d\d:\d\d)(?:\.(\d+))?(?:Z| \+0000)$)");
  std::smatch m;
  if (!std::regex_match(text, m, re)) return Status::InvalidArgument("unexpected time bound '" + text + "'");
  TimeBound b{m[1].str(), m[2].str(), m[3].str(), 0};
  GNOMON_ASSIGN_OR_RETURN(b.ns, query::ParseTimeLiteral(text));
  return b;
}

Status ReadBounds(const std::string& sql, QueryParams* p) {
  for (auto it = std::sregex_iterator(sql.begin(), sql.end(), BoundRegex()); it != std::sregex_iterator(); ++it) {
    std::optional<TimeBound>& slot = (*it)[1].str() == ">=" ? p->lower : p->upper;
    if (slot) return Status::InvalidArgument("bound given twice: " + (*it)[0].str());
    GNOMON_ASSIGN_OR_RETURN(slot, ParseBound((*it)[2].str()));
  }
  return Status::OK();
}

enum class Dialect { kGreptime, kTimescale };

std::string FormatBound(const TimeBound& b, Dialect d) {
  const std::string frac = b.fraction.empty() ? "" : "." + b.fraction;
  return d == Dialect::kGreptime ? b.date + "T" + b.clock + frac + "Z"
                                 : b.date + " " + b.clock + frac + " +0000";
}

Result<std::string> ReplaceBounds(const std::string& sql, const QueryParams& p, Dialect d) {
  std::string out;
  auto last = sql.cbegin();
  bool saw_lower = false, saw_upper = false;
  for (auto it = std::sregex_iterator(sql.begin(), sql.end(), BoundRegex()); it != std::sregex_iterator(); ++it) {
    const bool lower = (*it)[1].str() == ">=";
    const std::optional<TimeBound>& b = lower ? p.lower : p.upper;
    if (!b) return Status::InvalidArgument("no " + std::string(lower ? "lower" : "upper") + " bound to put in " + sql);
    (lower ? saw_lower : saw_upper) = true;
    out.append(last, (*it)[0].first);
    out += "time " + (*it)[1].str() + " '" + FormatBound(*b, d) + "'";
    last = (*it)[0].second;
  }
  out.append(last, sql.cend());
  if (p.lower.has_value() != saw_lower || p.upper.has_value() != saw_upper) {
    return Status::InvalidArgument("bounds do not fit the statement: " + sql);
  }
  return out;
}

// greptime: (hostname = 'a' or hostname = 'b'); TimescaleDB after the rewrite: hostname IN ('a','b').
const std::regex& GreptimeHostsRegex() {
  static const std::regex re(R"(\(hostname = '[^']*'(?: or hostname = '[^']*')*\))");
  return re;
}
const std::regex& TimescaleHostsRegex() {
  static const std::regex re(R"(hostname IN \(([^)]*)\))");
  return re;
}

Result<std::string> ReplaceHosts(const std::string& sql, const std::vector<std::string>& hosts, Dialect d) {
  const std::regex& re = d == Dialect::kGreptime ? GreptimeHostsRegex() : TimescaleHostsRegex();
  std::smatch m;
  const bool found = std::regex_search(sql, m, re);
  if (found != !hosts.empty()) return Status::InvalidArgument("host set does not fit the statement: " + sql);
  if (!found) return sql;
  std::string list;
  for (const std::string& h : hosts) {
    if (!list.empty()) list += d == Dialect::kGreptime ? " or " : ",";
    list += d == Dialect::kGreptime ? "hostname = '" + h + "'" : "'" + h + "'";
  }
  const std::string replacement = d == Dialect::kGreptime ? "(" + list + ")" : "hostname IN (" + list + ")";
  return m.prefix().str() + replacement + m.suffix().str();
}

}  // namespace

int64_t TimeBound::FirstStepAtOrAfter() const {
  return FloorDiv(ns + kStepNs - 1, kStepNs) * kStepNs;
}

Result<QueryParams> GreptimeParams(const std::string& sql) {
  QueryParams p;
  std::smatch m;
  if (std::regex_search(sql, m, GreptimeHostsRegex())) {
    static const std::regex host(R"('([^']*)')");
    const std::string group = m[0].str();
    for (auto it = std::sregex_iterator(group.begin(), group.end(), host); it != std::sregex_iterator(); ++it) {
      p.hosts.push_back((*it)[1].str());
    }
  }
  std::sort(p.hosts.begin(), p.hosts.end());
  GNOMON_RETURN_IF_ERROR(ReadBounds(sql, &p));
  return p;
}

Result<QueryParams> TimescaleParams(const std::string& sql) {
  QueryParams p;
  std::smatch m;
  if (std::regex_search(sql, m, TimescaleHostsRegex())) {
    static const std::regex host(R"('([^']*)')");
    const std::string list = m[1].str();
    for (auto it = std::sregex_iterator(list.begin(), list.end(), host); it != std::sregex_iterator(); ++it) {
      p.hosts.push_back((*it)[1].str());
    }
  }
  std::sort(p.hosts.begin(), p.hosts.end());
  GNOMON_RETURN_IF_ERROR(ReadBounds(sql, &p));
  return p;
}

Result<std::string> WithGreptimeParams(const std::string& sql, const QueryParams& params) {
  GNOMON_ASSIGN_OR_RETURN(std::string out, ReplaceHosts(sql, params.hosts, Dialect::kGreptime));
  return ReplaceBounds(out, params, Dialect::kGreptime);
}

Result<std::string> WithTimescaleParams(const std::string& sql, const QueryParams& params) {
  GNOMON_ASSIGN_OR_RETURN(std::string out, ReplaceHosts(sql, params.hosts, Dialect::kTimescale));
  return ReplaceBounds(out, params, Dialect::kTimescale);
}

bool SelectSameRows(const QueryParams& a, const QueryParams& b) {
  auto same = [](const std::optional<TimeBound>& x, const std::optional<TimeBound>& y) {
    if (x.has_value() != y.has_value()) return false;
    return !x || x->FirstStepAtOrAfter() == y->FirstStepAtOrAfter();
  };
  return a.hosts == b.hosts && same(a.lower, b.lower) && same(a.upper, b.upper);
}

std::string DescribeParams(const QueryParams& p) {
  std::string s = "hosts {";
  for (size_t i = 0; i < p.hosts.size(); ++i) s += (i ? "," : "") + p.hosts[i];
  s += "} window [";
  s += p.lower ? FormatBound(*p.lower, Dialect::kGreptime) : std::string("-inf");
  s += ", ";
  s += p.upper ? FormatBound(*p.upper, Dialect::kGreptime) : std::string("+inf");
  return s + ")";
}

}  // namespace gnomon::acceptance
