#include "src/query/function/scalar_functions.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <memory>
#include <random>
#include <unordered_map>

#include "src/base/ascii.h"
#include "src/base/time_util.h"
#include "src/base/time_zone.h"
#include "src/query/parser/interval.h"
#include "re2/re2.h"

namespace gnomon::query {
namespace {

// TimescaleDB buckets from Monday 2000-01-03 so weekly buckets start on Mondays; for widths that
// divide a day the origin makes no difference.
constexpr int64_t kTimescaleOrigin = 946857600LL * kNanosPerSecond;

// regexp_like's compiled patterns, per thread: the pattern is almost always one constant.
const RE2* CachedRegex(const std::string& pattern) {
  thread_local std::unordered_map<std::string, std::unique_ptr<RE2>> cache;
  auto it = cache.find(pattern);
  if (it != cache.end()) return it->second.get();
  if (cache.size() >= 64) cache.clear();
  auto re = std::make_unique<RE2>(pattern, RE2::Quiet);
  if (!re->ok()) return nullptr;
  return cache.emplace(pattern, std::move(re)).first->second.get();
}

Status ArgCount(const BoundExpr& e, size_t lo, size_t hi) {
  size_t n = e.children.size();
  if (n < lo || n > hi) {
    return Status::InvalidArgument("function " + e.name + " takes " + std::to_string(lo) +
                                   (hi != lo ? "-" + std::to_string(hi) : "") + " arguments, got " +
                                   std::to_string(n));
  }
  return Status::OK();
}

// Turns a constant width argument into nanoseconds ('60 seconds', INTERVAL, or an integer).
Status WidthArgument(BoundExpr* arg, const std::string& fn) {
  if (!arg->IsConstant()) {
    return Status::InvalidArgument(fn + ": the bucket width must be a constant interval");
  }
  Value& v = arg->constant;
  if (v.type == ValueType::kString) {
    GNOMON_ASSIGN_OR_RETURN(int64_t ns, ParseInterval(v.s));
    v = Value::Int(ns);
    arg->type = ValueType::kInt64;
    arg->is_interval = true;
  }
  if (v.type != ValueType::kInt64) return Status::InvalidArgument(fn + ": bad bucket width");
  if (v.i <= 0) return Status::InvalidArgument(fn + ": the bucket width must be positive");
  return Status::OK();
}

bool TruncUnit(const std::string& unit, int64_t* width, TimeBucketFn::Calendar* cal) {
  std::string u = AsciiLower(unit);
  if (!u.empty() && u.back() == 's') u.pop_back();
  *cal = TimeBucketFn::Calendar::kNone;
  *width = 0;
  if (u == "nanosecond") *width = 1;
  else if (u == "microsecond") *width = kNanosPerMicro;
  else if (u == "millisecond") *width = kNanosPerMilli;
  else if (u == "second") *width = kNanosPerSecond;
  else if (u == "minute") *width = kNanosPerMinute;
  else if (u == "hour") *width = kNanosPerHour;
  else if (u == "day") *width = kNanosPerDay;
  else if (u == "week") *cal = TimeBucketFn::Calendar::kWeek;
  else if (u == "month") *cal = TimeBucketFn::Calendar::kMonth;
  else if (u == "quarter") *cal = TimeBucketFn::Calendar::kQuarter;
  else if (u == "year") *cal = TimeBucketFn::Calendar::kYear;
  else return false;
  return true;
}

// date_part / EXTRACT fields PostgreSQL knows for timestamps (and epoch for intervals).
bool DatePartField(const std::string& field) {
  static const char* kFields[] = {"epoch", "year", "quarter", "month", "week", "day", "dow", "isodow", "doy",
                                  "hour", "minute", "second", "millisecond", "milliseconds", "microsecond",
                                  "microseconds"};
  for (const char* f : kFields) {
    if (field == f) return true;
  }
  return false;
}

// PostgreSQL's date_part of a UTC timestamp (ns), as a double.
double DatePart(const std::string& field, int64_t ns) {
  const int64_t days = FloorDiv(ns, kNanosPerDay);
  const int64_t of_day = ns - days * kNanosPerDay;
  const double second = static_cast<double>(of_day % kNanosPerMinute) / 1e9;  // with its fraction
  if (field == "epoch") return static_cast<double>(ns) / 1e9;
  if (field == "hour") return static_cast<double>(of_day / kNanosPerHour);
  if (field == "minute") return static_cast<double>(of_day / kNanosPerMinute % 60);
  if (field == "second") return second;
  if (field == "millisecond" || field == "milliseconds") return second * 1e3;
  if (field == "microsecond" || field == "microseconds") return second * 1e6;
  const int64_t dow = ((days + 4) % 7 + 7) % 7;  // 1970-01-01 was a Thursday; 0 = Sunday
  if (field == "dow") return static_cast<double>(dow);
  if (field == "isodow") return static_cast<double>(dow == 0 ? 7 : dow);
  int64_t y;
  unsigned m, d;
  CivilFromDays(days, &y, &m, &d);
  if (field == "year") return static_cast<double>(y);
  if (field == "quarter") return static_cast<double>((m - 1) / 3 + 1);
  if (field == "month") return static_cast<double>(m);
  if (field == "day") return static_cast<double>(d);
  if (field == "doy") return static_cast<double>(days - DaysFromCivil(y, 1, 1) + 1);
  // ISO week: the week (Monday first) holding this day's Thursday, counted in that Thursday's year.
  const int64_t thursday = days - (dow == 0 ? 6 : dow - 1) + 3;
  int64_t ty;
  unsigned tm, td;
  CivilFromDays(thursday, &ty, &tm, &td);
  return static_cast<double>((thursday - DaysFromCivil(ty, 1, 1)) / 7 + 1);
}

// The zone of a date_bin call the binder accepted; null for UTC, which needs no zone arithmetic.
std::shared_ptr<const TimeZone> ZoneOf(const std::string& name) {
  auto zone = TimeZone::Load(name);
  GNOMON_CHECK_MSG(zone.ok(), "date_bin's zone was checked when the call was bound");
  return (*zone)->is_utc() ? nullptr : *zone;
}

}  // namespace

int64_t TimeBucketFn::Apply(int64_t t) const {
  if (zone != nullptr) return ZonedStart(t);
  if (calendar == Calendar::kNone) return FloorDiv(t - origin, width) * width + origin;
  int64_t days = FloorDiv(t, kNanosPerDay);
  if (calendar == Calendar::kWeek) {
    // 1970-01-01 was a Thursday; weeks start on Monday (ISO).
    int64_t monday = days - ((days + 3) % 7 + 7) % 7;
    return monday * kNanosPerDay;
  }
  int64_t y;
  unsigned m, d;
  CivilFromDays(days, &y, &m, &d);
  if (calendar == Calendar::kMonth) return DaysFromCivil(y, m, 1) * kNanosPerDay;
  if (calendar == Calendar::kQuarter) return DaysFromCivil(y, (m - 1) / 3 * 3 + 1, 1) * kNanosPerDay;
  return DaysFromCivil(y, 1, 1) * kNanosPerDay;
}

int64_t TimeBucketFn::BucketEnd(int64_t start) const {
  if (zone != nullptr) return ZonedEnd(start);
  if (calendar == Calendar::kNone) {
    return start > INT64_MAX - width ? INT64_MAX : start + width;
  }
  if (calendar == Calendar::kWeek) return start + 7 * kNanosPerDay;
  int64_t y;
  unsigned m, d;
  CivilFromDays(FloorDiv(start, kNanosPerDay), &y, &m, &d);
  unsigned months = calendar == Calendar::kMonth ? 1 : (calendar == Calendar::kQuarter ? 3 : 12);
  int64_t total = y * 12 + (m - 1) + months;
  return DaysFromCivil(FloorDiv(total, 12), static_cast<unsigned>(total - FloorDiv(total, 12) * 12) + 1, 1) *
         kNanosPerDay;
}

Status ResolveScalarFunction(BoundExpr* e, int64_t now_ns) {
  const std::string& n = e->name;
  auto& args = e->children;
  if (n == "now" || n == "current_timestamp") {
    GNOMON_RETURN_IF_ERROR(ArgCount(*e, 0, 0));
    e->kind = BoundKind::kConstant;
    e->constant = Value::Timestamp(now_ns);
    e->type = ValueType::kTimestamp;
    return Status::OK();
  }
  if (n == "random") {  // volatile: a new value for every row (see ReadsNoColumn)
    GNOMON_RETURN_IF_ERROR(ArgCount(*e, 0, 0));
    e->type = ValueType::kFloat64;
    return Status::OK();
  }
  if (n == "time_bucket" || n == "date_bin" || n == "date_bin_end") {
    GNOMON_RETURN_IF_ERROR(ArgCount(*e, 2, n == "time_bucket" ? 3 : 4));
    GNOMON_RETURN_IF_ERROR(WidthArgument(args[0].get(), n));
    if (args[1]->type != ValueType::kTimestamp) {
      return Status::InvalidArgument(n + ": the second argument must be a timestamp");
    }
    if (args.size() == 3) {
      BoundExpr* o = args[2].get();
      if (o->IsConstant() && o->constant.type == ValueType::kString) {
        return Status::InvalidArgument(n + ": origin must be a timestamp (cast it)");
      }
      if (!o->IsConstant() || (o->type != ValueType::kTimestamp && o->type != ValueType::kInt64)) {
        return Status::InvalidArgument(n + ": origin must be a constant timestamp");
      }
    }
    if (args.size() == 4) {
      const BoundExpr* z = args[3].get();
      if (!z->IsConstant() || z->constant.type != ValueType::kString) {
        return Status::InvalidArgument(n + ": the time zone must be a constant string ('America/Chicago')");
      }
      GNOMON_RETURN_IF_ERROR(TimeZone::Load(z->constant.s).status());
    }
    e->type = ValueType::kTimestamp;
    return Status::OK();
  }
  if (n == "date_trunc") {
    GNOMON_RETURN_IF_ERROR(ArgCount(*e, 2, 2));
    if (!args[0]->IsConstant() || args[0]->constant.type != ValueType::kString) {
      return Status::InvalidArgument("date_trunc: the unit must be a constant string");
    }
    int64_t w;
    TimeBucketFn::Calendar c;
    if (!TruncUnit(args[0]->constant.s, &w, &c)) {
      return Status::InvalidArgument("date_trunc: unknown unit '" + args[0]->constant.s + "'");
    }
    if (args[1]->type != ValueType::kTimestamp) {
      return Status::InvalidArgument("date_trunc: the second argument must be a timestamp");
    }
    e->type = ValueType::kTimestamp;
    return Status::OK();
  }
  if (n == "to_timestamp") {
    GNOMON_RETURN_IF_ERROR(ArgCount(*e, 1, 1));
    e->type = ValueType::kTimestamp;
    return Status::OK();
  }
  if (n == "date_part") {
    GNOMON_RETURN_IF_ERROR(ArgCount(*e, 2, 2));
    if (!args[0]->IsConstant() || args[0]->constant.type != ValueType::kString) {
      return Status::InvalidArgument("date_part: the field must be a constant string");
    }
    const std::string field = AsciiLower(args[0]->constant.s);
    if (!DatePartField(field)) return Status::InvalidArgument("date_part: unknown field '" + field + "'");
    args[0]->constant.s = field;
    const bool interval = args[1]->is_interval || (args[1]->type == ValueType::kInt64 && field == "epoch");
    if (args[1]->type != ValueType::kTimestamp && !(interval && field == "epoch") &&
        args[1]->type != ValueType::kNull) {
      return Status::InvalidArgument("date_part: the second argument must be a timestamp (or an interval, for epoch)");
    }
    e->type = ValueType::kFloat64;
    return Status::OK();
  }
  if (n == "age") {
    // PostgreSQL's age(a, b) = a - b; age(a) = now() - a. An interval (nanoseconds).
    GNOMON_RETURN_IF_ERROR(ArgCount(*e, 1, 2));
    for (const auto& a : args) {
      if (a->type != ValueType::kTimestamp && a->type != ValueType::kNull) {
        return Status::InvalidArgument("age: the arguments must be timestamps");
      }
    }
    if (args.size() == 1) {
      auto now = std::make_unique<BoundExpr>();
      now->kind = BoundKind::kConstant;
      now->constant = Value::Timestamp(now_ns);
      now->type = ValueType::kTimestamp;
      args.insert(args.begin(), std::move(now));
    }
    e->type = ValueType::kInt64;
    e->is_interval = true;
    return Status::OK();
  }
  if (n == "abs" || n == "floor" || n == "ceil" || n == "ceiling") {
    GNOMON_RETURN_IF_ERROR(ArgCount(*e, 1, 1));
    e->type = args[0]->type == ValueType::kUInt64 ? ValueType::kUInt64 : args[0]->type;
    if (!IsNumeric(e->type) && e->type != ValueType::kNull) {
      return Status::InvalidArgument(n + " needs a number");
    }
    return Status::OK();
  }
  if (n == "round") {
    GNOMON_RETURN_IF_ERROR(ArgCount(*e, 1, 2));
    e->type = args[0]->type == ValueType::kInt64 && args.size() == 1 ? ValueType::kInt64
                                                                       : ValueType::kFloat64;
    return Status::OK();
  }
  if (n == "regexp_like") {
    GNOMON_RETURN_IF_ERROR(ArgCount(*e, 2, 2));
    const BoundExpr& pattern = *args[1];
    if (pattern.kind == BoundKind::kConstant && pattern.constant.type == ValueType::kString) {
      RE2 re(pattern.constant.s, RE2::Quiet);
      if (!re.ok()) return Status::InvalidArgument("invalid regular expression " + pattern.constant.s + ": " + re.error());
    }
    e->type = ValueType::kBool;
    return Status::OK();
  }
  if (n == "sqrt" || n == "ln" || n == "log10" || n == "log2" || n == "exp" || n == "sin" || n == "cos" ||
      n == "tan") {
    GNOMON_RETURN_IF_ERROR(ArgCount(*e, 1, 1));
    e->type = ValueType::kFloat64;
    return Status::OK();
  }
  if (n == "power" || n == "pow") {
    GNOMON_RETURN_IF_ERROR(ArgCount(*e, 2, 2));
    e->type = ValueType::kFloat64;
    return Status::OK();
  }
  if (n == "lower" || n == "upper") {
    GNOMON_RETURN_IF_ERROR(ArgCount(*e, 1, 1));
    e->type = ValueType::kString;
    return Status::OK();
  }
  if (n == "length" || n == "char_length") {
    GNOMON_RETURN_IF_ERROR(ArgCount(*e, 1, 1));
    e->type = ValueType::kInt64;
    return Status::OK();
  }
  if (n == "concat") {
    e->type = ValueType::kString;
    return Status::OK();
  }
  if (n == "coalesce" || n == "nullif") {
    GNOMON_RETURN_IF_ERROR(ArgCount(*e, n == "nullif" ? 2 : 1, n == "nullif" ? 2 : 64));
    ValueType t = ValueType::kNull;
    for (const auto& a : args) {
      if (t == ValueType::kNull) t = a->type;
      else if (a->type != ValueType::kNull && a->type != t && IsNumeric(a->type) && IsNumeric(t)) {
        t = ValueType::kFloat64;
      }
    }
    e->type = n == "nullif" ? args[0]->type : t;
    return Status::OK();
  }
  return Status::InvalidArgument("function " + n + " does not exist");
}

namespace {

// The fixed-width bucket of a time_bucket, date_bin or date_bin_end call from its constant
// arguments (width, origin, zone), of a time column.
bool FixedBucketOfColumn(const BoundExpr& e, TimeBucketFn* fn, int* column) {
  if (e.children[1]->kind != BoundKind::kColumn) return false;
  fn->width = e.children[0]->constant.i;
  fn->origin = e.name == "time_bucket" ? kTimescaleOrigin : 0;
  if (e.children.size() >= 3) fn->origin = e.children[2]->constant.i;
  fn->zone = e.children.size() == 4 ? ZoneOf(e.children[3]->constant.s) : nullptr;
  fn->calendar = TimeBucketFn::Calendar::kNone;
  *column = e.children[1]->column;
  return true;
}

}  // namespace

bool AsTimeBucket(const BoundExpr& e, TimeBucketFn* fn, int* column) {
  if (e.kind != BoundKind::kCall) return false;
  if (e.name == "time_bucket" || e.name == "date_bin") return FixedBucketOfColumn(e, fn, column);
  if (e.name == "date_trunc") {
    if (e.children[1]->kind != BoundKind::kColumn) return false;
    TruncUnit(e.children[0]->constant.s, &fn->width, &fn->calendar);
    fn->origin = 0;
    *column = e.children[1]->column;
    return true;
  }
  return false;
}

bool AsBucketEnd(const BoundExpr& e, TimeBucketFn* fn, int* column) {
  return e.kind == BoundKind::kCall && e.name == "date_bin_end" && FixedBucketOfColumn(e, fn, column);
}

Result<Value> EvalScalarFunction(const BoundExpr& e, const std::vector<Value>& args) {
  const std::string& n = e.name;
  if (n == "random") {
    thread_local std::mt19937_64 generator{std::random_device{}()};
    return Value::Float(std::uniform_real_distribution<double>(0.0, 1.0)(generator));
  }
  if (n == "coalesce") {
    for (const Value& v : args) {
      if (!v.is_null()) {
        if (e.type == ValueType::kFloat64 && v.type != ValueType::kFloat64) return Value::Float(v.AsDouble());
        return v;
      }
    }
    return Value::Null();
  }
  if (n == "nullif") {
    if (!args[0].is_null() && !args[1].is_null() && CompareValues(args[0], args[1]) == 0) {
      return Value::Null();
    }
    return args[0];
  }
  if (n == "concat") {
    std::string s;
    for (const Value& v : args) {
      if (!v.is_null()) s += v.ToString();
    }
    return Value::String(std::move(s));
  }
  for (const Value& v : args) {
    if (v.is_null()) return Value::Null();
  }
  if (n == "time_bucket" || n == "date_bin" || n == "date_bin_end" || n == "date_trunc") {
    TimeBucketFn fn;
    int col;
    if (!AsTimeBucket(e, &fn, &col) && !AsBucketEnd(e, &fn, &col)) {
      // Bucketing an expression: rebuild the parameters from the constant arguments.
      if (n == "date_trunc") {
        TruncUnit(args[0].s, &fn.width, &fn.calendar);
      } else {
        fn.width = args[0].i;
        fn.origin = n == "time_bucket" ? kTimescaleOrigin : 0;
        if (args.size() >= 3) fn.origin = args[2].i;
        fn.zone = args.size() == 4 ? ZoneOf(args[3].s) : nullptr;
      }
    }
    // date_bin_end: where date_bin's bucket of the time ends (its next bucket's start; not always
    // width later in a zone with clock changes).
    if (n == "date_bin_end") return Value::Timestamp(fn.BucketEnd(fn.Apply(args[1].i)));
    return Value::Timestamp(fn.Apply(args[1].i));
  }
  if (n == "to_timestamp") {
    return Value::Timestamp(static_cast<int64_t>(args[0].AsDouble() * 1e9));
  }
  if (n == "date_part") {
    if (args[1].type != ValueType::kTimestamp) return Value::Float(static_cast<double>(args[1].i) / 1e9);  // epoch of an interval
    return Value::Float(DatePart(args[0].s, args[1].i));
  }
  if (n == "age") {
    int64_t d;
    if (__builtin_sub_overflow(args[0].i, args[1].i, &d)) return Status::OutOfRange("age() overflows");
    return Value::Int(d);
  }
  const Value& a = args[0];
  if (n == "abs") {
    if (a.type == ValueType::kInt64) return Value::Int(a.i < 0 ? -a.i : a.i);
    if (a.type == ValueType::kUInt64) return a;
    return Value::Float(std::fabs(a.AsDouble()));
  }
  if (n == "floor" || n == "ceil" || n == "ceiling") {
    if (a.type != ValueType::kFloat64) return a;
    return Value::Float(n == "floor" ? std::floor(a.f) : std::ceil(a.f));
  }
  if (n == "round") {
    if (args.size() == 1) {
      if (a.type == ValueType::kInt64) return a;
      return Value::Float(std::round(a.AsDouble()));
    }
    double scale = std::pow(10.0, static_cast<double>(args[1].AsDouble()));
    return Value::Float(std::round(a.AsDouble() * scale) / scale);
  }
  if (n == "regexp_like") {
    const RE2* re = CachedRegex(args[1].s);
    if (re == nullptr) return Status::InvalidArgument("invalid regular expression " + args[1].s);
    return Value::Bool(RE2::PartialMatch(a.s, *re));
  }
  if (n == "log2") return Value::Float(std::log2(a.AsDouble()));
  if (n == "sin") return Value::Float(std::sin(a.AsDouble()));
  if (n == "cos") return Value::Float(std::cos(a.AsDouble()));
  if (n == "tan") return Value::Float(std::tan(a.AsDouble()));
  if (n == "sqrt") return Value::Float(std::sqrt(a.AsDouble()));
  if (n == "ln") return Value::Float(std::log(a.AsDouble()));
  if (n == "log10") return Value::Float(std::log10(a.AsDouble()));
  if (n == "exp") return Value::Float(std::exp(a.AsDouble()));
  if (n == "power" || n == "pow") return Value::Float(std::pow(a.AsDouble(), args[1].AsDouble()));
  if (n == "lower" || n == "upper") {
    std::string s = a.s;
    for (char& c : s) c = static_cast<char>(n == "lower" ? std::tolower(c) : std::toupper(c));
    return Value::String(std::move(s));
  }
  if (n == "length" || n == "char_length") return Value::Int(static_cast<int64_t>(a.s.size()));
  return Status::InvalidArgument("function " + n + " cannot be evaluated");
}

}  // namespace gnomon::query
