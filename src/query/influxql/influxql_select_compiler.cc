// InfluxQL SELECT -> SQL: sources and their schemas, GROUP BY, select-list expansion, and the
// three shapes a statement takes (raw points, aggregates, transformations of either).
#include <algorithm>
#include <set>

#include "src/base/time_zone.h"
#include "src/query/influxql/influxql_compiler_internal.h"
#include "src/query/influxql/influxql_query_shapes.h"
#include "re2/re2.h"

namespace gnomon::query::influxql {
namespace {

bool RegexMatches(const std::string& pattern, const std::string& s) {
  // InfluxDB's regexes match anywhere unless anchored (Go's MatchString; RE2 is Go's syntax).
  RE2 re(pattern, RE2::Quiet);
  return re.ok() && RE2::PartialMatch(s, re);
}

Result<std::vector<std::string>> GroupTags(const SelectStatement& s, const Relation& rel,
                                           std::optional<Dimension>* time_dim) {
  std::set<std::string> tags;
  for (const Dimension& d : s.dimensions) {
    switch (d.kind) {
      case Dimension::Kind::kTime:
        if (*time_dim) return Status::InvalidArgument("multiple time dimensions");
        *time_dim = d;
        break;
      case Dimension::Kind::kTag: tags.insert(d.name); break;
      case Dimension::Kind::kWildcard: tags.insert(rel.tags.begin(), rel.tags.end()); break;
      case Dimension::Kind::kRegex:
        for (const auto& t : rel.tags) {
          if (RegexMatches(d.name, t)) tags.insert(t);
        }
        break;
    }
  }
  return std::vector<std::string>(tags.begin(), tags.end());
}

// `*`, `/regex/`, and f(*) / f(/regex/) expanded against the relation, in InfluxDB's order.
Result<std::vector<Field>> ExpandFields(const SelectStatement& s, const Relation& rel,
                                        const std::vector<std::string>& group_tags) {
  std::vector<Field> out;
  auto names_matching = [&](const std::string* regex, const std::string& hint) {
    std::vector<std::string> names;
    if (hint != "tag") {
      for (const auto& [n, t] : rel.fields) {
        if (regex == nullptr || RegexMatches(*regex, n)) names.push_back(n);
      }
    }
    if (hint != "field") {
      for (const auto& t : rel.tags) {
        if (std::binary_search(group_tags.begin(), group_tags.end(), t)) continue;
        if (regex == nullptr || RegexMatches(*regex, t)) names.push_back(t);
      }
    }
    std::sort(names.begin(), names.end());
    return names;
  };
  for (const Field& f : s.fields) {
    const Expr& e = *f.expr;
    if (e.kind == Expr::Kind::kWildcard || e.kind == Expr::Kind::kRegex) {
      const std::string* re = e.kind == Expr::Kind::kRegex ? &e.text : nullptr;
      for (const auto& n : names_matching(re, e.type_hint)) out.push_back(Field{MakeVarRef(n), ""});
      continue;
    }
    if (e.kind == Expr::Kind::kCall && e.args.size() >= 1 &&
        (e.args[0]->kind == Expr::Kind::kWildcard || e.args[0]->kind == Expr::Kind::kRegex)) {
      const std::string* re = e.args[0]->kind == Expr::Kind::kRegex ? &e.args[0]->text : nullptr;
      std::string prefix = f.alias.empty() ? e.text : f.alias;
      auto fields = rel.fields;
      std::sort(fields.begin(), fields.end());
      for (const auto& [n, t] : fields) {
        if (re != nullptr && !RegexMatches(*re, n)) continue;
        const bool any_type = e.text == "count" || e.text == "first" || e.text == "last" || e.text == "mode" ||
                              e.text == "distinct";
        if (!any_type && t == ValueType::kString) continue;
        ExprPtr call = e.Copy();
        call->args[0] = MakeVarRef(n);
        out.push_back(Field{std::move(call), prefix + "_" + n});
      }
      continue;
    }
    out.push_back(Field{e.Copy(), f.alias});
    // top(field, tag..., N) also returns the tags it picked distinct points by.
    if (e.kind == Expr::Kind::kCall && (e.text == "top" || e.text == "bottom")) {
      for (size_t i = 1; i + 1 < e.args.size(); ++i) {
        if (e.args[i]->kind == Expr::Kind::kVarRef) out.push_back(Field{MakeVarRef(e.args[i]->text), ""});
      }
    }
  }
  if (out.empty()) return Status::InvalidArgument("at least 1 non-time field must be queried");
  return out;
}

// The narrower of two optional bounds: the larger lower bound or the smaller upper one.
std::optional<int64_t> Tighter(std::optional<int64_t> a, std::optional<int64_t> b, bool lower) {
  if (!a) return b;
  if (!b) return a;
  return lower ? std::max(*a, *b) : std::min(*a, *b);
}

// The named tags `s` groups by, with those its own outer queries group by.
std::vector<std::string> TagsPassedDown(const SelectStatement& s, const CompileContext& ctx) {
  std::vector<std::string> tags = ctx.outer_group_tags;
  for (const Dimension& d : s.dimensions) {
    if (d.kind == Dimension::Kind::kTag) tags.push_back(d.name);
  }
  return tags;
}

// A subquery's own group tags plus the outer ones its relation has; a selected tag that is also a
// group tag leaves the value list (the outer query reads it as the tag).
void AddOuterGroupTags(const CompileContext& ctx, const Relation& rel, ShapeInput* in) {
  if (!ctx.subquery) return;
  for (const auto& t : ctx.outer_group_tags) {
    if (rel.IsTag(t) && !std::binary_search(in->group_tags.begin(), in->group_tags.end(), t)) {
      in->group_tags.insert(std::lower_bound(in->group_tags.begin(), in->group_tags.end(), t), t);
    }
  }
  auto is_group_tag = [&](const Field& f) {
    return f.expr->kind == Expr::Kind::kVarRef && rel.IsTag(f.expr->text) &&
           std::binary_search(in->group_tags.begin(), in->group_tags.end(), f.expr->text);
  };
  size_t kept = std::count_if(in->fields.begin(), in->fields.end(), [&](const Field& f) { return !is_group_tag(f); });
  if (kept > 0) in->fields.erase(std::remove_if(in->fields.begin(), in->fields.end(), is_group_tag), in->fields.end());
}

Result<std::vector<Relation>> ResolveSource(const SelectStatement& outer, const Source& src, const CompileContext& ctx,
                                            std::vector<std::string>* measurement_names,
                                            std::vector<std::string>* databases) {
  std::vector<Relation> out;
  if (src.subquery) {
    CompileContext inner_ctx = ctx;
    inner_ctx.subquery = true;
    inner_ctx.outer_group_tags = TagsPassedDown(outer, ctx);
    TimeRange range;
    GNOMON_RETURN_IF_ERROR(ExtractTimeRange(outer.condition.get(), ctx.now_ns, &range));
    inner_ctx.outer_lower = Tighter(range.lower, ctx.outer_lower, true);
    inner_ctx.outer_upper = Tighter(range.upper, ctx.outer_upper, false);
    GNOMON_ASSIGN_OR_RETURN(auto inner, CompileSelect(*src.subquery, inner_ctx));
    if (inner.size() > 1) return Status::InvalidArgument("a subquery over several measurements is not supported");
    if (inner.empty()) return out;
    const CompiledSelect& c = inner[0];
    Relation rel;
    rel.from_sql = "(" + c.sql + ") AS " + Quote("__sub");
    rel.subquery = true;
    rel.tags = c.tag_keys;
    std::sort(rel.tags.begin(), rel.tags.end());
    for (size_t i = 1; i < c.columns.size(); ++i) rel.fields.push_back({c.columns[i], ValueType::kFloat64});
    out.push_back(std::move(rel));
    measurement_names->push_back(c.measurement);
    databases->push_back(c.database);
    return out;
  }
  std::string db = src.database.empty() ? ctx.database : src.database;
  if (db.empty()) return Status::InvalidArgument("database name required");
  std::vector<std::string> names;
  if (src.regex) {
    GNOMON_ASSIGN_OR_RETURN(auto all, ctx.measurements(db));
    for (const auto& m : all) {
      if (RegexMatches(*src.regex, m)) names.push_back(m);
    }
  } else {
    names.push_back(src.measurement);
  }
  for (const auto& m : names) {
    GNOMON_ASSIGN_OR_RETURN(auto schema, ctx.schema(db, m));
    if (!schema) continue;
    Relation rel;
    rel.from_sql = Quote(db) + "." + Quote(m);
    rel.tags = schema->tags;
    std::sort(rel.tags.begin(), rel.tags.end());
    rel.fields = schema->fields;
    out.push_back(std::move(rel));
    measurement_names->push_back(m);
    databases->push_back(db);
  }
  return out;
}

}  // namespace

namespace {

// Whether `e` reads a field or tag (a name, `*` or a /regex/), as every selected field must. A
// call counts: each function checks its own arguments, with its own message.
bool ContainsVariable(const Expr& e) {
  if (e.kind == Expr::Kind::kVarRef || e.kind == Expr::Kind::kWildcard || e.kind == Expr::Kind::kRegex ||
      e.kind == Expr::Kind::kCall) {
    return true;
  }
  for (const auto& a : e.args) {
    if (ContainsVariable(*a)) return true;
  }
  return false;
}

// Whether `e` names a field or tag "" (no key is empty; such a name would also make an unnamed
// SQL column).
bool NamesEmptyKey(const Expr& e) {
  if (e.kind == Expr::Kind::kVarRef && e.text.empty()) return true;
  for (const auto& a : e.args) {
    if (NamesEmptyKey(*a)) return true;
  }
  return false;
}

}  // namespace

Result<std::vector<CompiledSelect>> CompileSelect(const SelectStatement& select, const CompileContext& ctx) {
  // As InfluxDB: a constant (SELECT 3) is no field; it would also have no column name.
  for (const Field& f : select.fields) {
    if (!ContainsVariable(*f.expr)) return Status::InvalidArgument("field must contain at least one variable");
    if (NamesEmptyKey(*f.expr)) {
      return Status::InvalidArgument("\"\" names no field or tag: keys are never empty");
    }
  }
  // No tag key is empty (line protocol cannot write one). InfluxDB answers GROUP BY "" with an
  // empty tag of that name; Gnomon refuses it rather than invent a column with no name.
  for (const Dimension& d : select.dimensions) {
    if (d.kind == Dimension::Kind::kTag && d.name.empty()) {
      return Status::InvalidArgument("GROUP BY \"\": a tag key is never empty");
    }
  }
  // tz('zone'): buckets of its wall-clock time (ZoneArgument), times rendered at its offsets.
  std::shared_ptr<const TimeZone> zone;
  if (!select.tz.empty()) {
    GNOMON_ASSIGN_OR_RETURN(zone, TimeZone::Load(select.tz));
    if (zone->is_utc()) zone = nullptr;
  }
  std::vector<Relation> relations;
  std::vector<std::string> measurements, databases;
  for (const Source& src : select.sources) {
    GNOMON_ASSIGN_OR_RETURN(auto rels, ResolveSource(select, src, ctx, &measurements, &databases));
    for (auto& r : rels) relations.push_back(std::move(r));
  }
  std::vector<size_t> order(relations.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return measurements[a] < measurements[b]; });

  std::vector<CompiledSelect> out;
  for (size_t i : order) {
    const Relation& rel = relations[i];
    ShapeInput in;
    in.select = &select;
    in.rel = &rel;
    in.now_ns = ctx.now_ns;
    GNOMON_ASSIGN_OR_RETURN(in.group_tags, GroupTags(select, rel, &in.time_dim));
    GNOMON_ASSIGN_OR_RETURN(in.fields, ExpandFields(select, rel, in.group_tags));
    AddOuterGroupTags(ctx, rel, &in);
    in.names = ColumnNames(in.fields);
    GNOMON_RETURN_IF_ERROR(ExtractTimeRange(select.condition.get(), ctx.now_ns, &in.range));
    in.outer_range = {ctx.outer_lower, ctx.outer_upper};
    in.range.lower = Tighter(in.range.lower, ctx.outer_lower, true);
    in.range.upper = Tighter(in.range.upper, ctx.outer_upper, false);
    GNOMON_ASSIGN_OR_RETURN(std::string sql, ShapeSql(in));
    CompiledSelect c;
    c.database = databases[i];
    c.measurement = measurements[i];
    c.sql = std::move(sql);
    c.tag_keys = in.group_tags;
    c.columns.push_back("time");
    for (const auto& n : in.names) c.columns.push_back(n);
    c.slimit = select.slimit;
    c.soffset = select.soffset;
    c.zone = zone;
    out.push_back(std::move(c));
  }
  return out;
}

}  // namespace gnomon::query::influxql
