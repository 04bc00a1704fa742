#include "src/query/parser/ast_select.h"

namespace gnomon::query {
namespace {

std::string JoinList(const std::vector<ExprPtr>& list, bool with_alias) {
  std::string out;
  for (size_t i = 0; i < list.size(); ++i) {
    if (i > 0) out += ", ";
    out += list[i]->ToString();
    if (with_alias && !list[i]->alias.empty()) out += " AS " + QuoteIdentifier(list[i]->alias);
  }
  return out;
}

}  // namespace

// ---- FROM items

std::string TableRef::AliasSuffix() const {
  return alias.empty() ? "" : " AS " + QuoteIdentifier(alias);
}

std::string BaseTableRef::ToString() const {
  std::string out;
  if (!schema_name.empty()) out += QuoteIdentifier(schema_name) + ".";
  return out + QuoteIdentifier(table_name) + AliasSuffix();
}

std::unique_ptr<TableRef> BaseTableRef::Copy() const {
  auto t = std::make_unique<BaseTableRef>();
  t->alias = alias;
  t->span = span;
  t->schema_name = schema_name;
  t->table_name = table_name;
  t->cte_reference = cte_reference;
  return t;
}

SubqueryRef::SubqueryRef() : TableRef(kType) {}
SubqueryRef::~SubqueryRef() = default;

std::string SubqueryRef::ToString() const {
  return (lateral ? "LATERAL (" : "(") + subquery->ToString() + ")" + AliasSuffix();
}

std::unique_ptr<TableRef> SubqueryRef::Copy() const {
  auto t = std::make_unique<SubqueryRef>();
  t->alias = alias;
  t->span = span;
  t->subquery = subquery->Copy();
  t->lateral = lateral;
  return t;
}

std::string JoinRef::ToString() const {
  static constexpr const char* kJoin[] = {" INNER JOIN ", " LEFT JOIN ", " RIGHT JOIN ",
                                          " FULL JOIN ", " CROSS JOIN "};
  std::string op = kJoin[static_cast<int>(join_type)];
  if (asof) op = " ASOF" + op.substr(join_type == JoinType::kInner ? 6 : 0);
  std::string out = left->ToString() + op + right->ToString();
  if (condition) out += " ON " + condition->ToString();
  if (!using_columns.empty()) {
    out += " USING (";
    for (size_t i = 0; i < using_columns.size(); ++i) {
      if (i > 0) out += ", ";
      out += QuoteIdentifier(using_columns[i]);
    }
    out += ')';
  }
  return out;
}

std::unique_ptr<TableRef> JoinRef::Copy() const {
  auto t = std::make_unique<JoinRef>();
  t->alias = alias;
  t->span = span;
  t->join_type = join_type;
  t->left = left->Copy();
  t->right = right->Copy();
  if (condition) t->condition = condition->Copy();
  t->using_columns = using_columns;
  t->asof = asof;
  return t;
}

// ---- SELECT

std::string SelectNode::ToString() const {
  std::string out;
  if (!ctes.empty()) {
    out += "WITH ";
    for (size_t i = 0; i < ctes.size(); ++i) {
      if (i > 0) out += ", ";
      out += QuoteIdentifier(ctes[i].name) + " AS (" + ctes[i].query->ToString() + ")";
    }
    out += ' ';
  }
  if (set_op != SetOperation::kNone) return out + SetOperationToString();
  out += "SELECT ";
  if (!distinct_on.empty()) {
    out += "DISTINCT ON (" + JoinList(distinct_on, false) + ") ";
  } else if (distinct) {
    out += "DISTINCT ";
  }
  out += JoinList(select_list, true);
  if (!into_table.empty()) out += " INTO " + QuoteIdentifier(into_table);
  if (from) out += " FROM " + from->ToString();
  if (where) out += " WHERE " + where->ToString();
  if (!group_by.empty()) out += " GROUP BY " + JoinList(group_by, false);
  if (fill) out += " fill(" + fill->ToString() + ")";
  if (having) out += " HAVING " + having->ToString();
  for (size_t i = 0; i < windows.size(); ++i) {
    out += i == 0 ? " WINDOW " : ", ";
    out += QuoteIdentifier(windows[i].name) + " AS (" + windows[i].spec->ToString() + ")";
  }
  if (!order_by.empty()) {
    out += " ORDER BY ";
    for (size_t i = 0; i < order_by.size(); ++i) {
      if (i > 0) out += ", ";
      out += order_by[i].ToString();
    }
  }
  if (limit) out += " LIMIT " + std::to_string(*limit);
  if (offset) out += " OFFSET " + std::to_string(*offset);
  return out;
}

std::unique_ptr<SelectNode> SelectNode::Copy() const {
  auto n = std::make_unique<SelectNode>();
  for (const CommonTableExpression& cte : ctes) {
    n->ctes.push_back(CommonTableExpression{cte.name, cte.query->Copy(), cte.span});
  }
  n->distinct = distinct;
  n->distinct_on = CopyExpressions(distinct_on);
  n->select_list = CopyExpressions(select_list);
  n->into_table = into_table;
  if (from) n->from = from->Copy();
  if (where) n->where = where->Copy();
  n->group_by = CopyExpressions(group_by);
  if (fill) n->fill = fill->Copy();
  if (having) n->having = having->Copy();
  for (const NamedWindow& w : windows) n->windows.push_back(NamedWindow{w.name, w.spec->Copy()});
  for (const OrderByItem& o : order_by) n->order_by.push_back(o.Copy());
  n->limit = limit;
  n->offset = offset;
  n->span = span;
  n->set_op = set_op;
  n->set_all = set_all;
  if (set_left) n->set_left = set_left->Copy();
  if (set_right) n->set_right = set_right->Copy();
  return n;
}

std::string SelectNode::SetOperationToString() const {
  static constexpr const char* kOps[] = {"", " UNION ", " INTERSECT ", " EXCEPT "};
  std::string out = "(" + set_left->ToString() + ")" + kOps[static_cast<int>(set_op)] +
                    (set_all ? "ALL " : "") + "(" + set_right->ToString() + ")";
  if (!order_by.empty()) {
    out += " ORDER BY ";
    for (size_t i = 0; i < order_by.size(); ++i) out += (i > 0 ? ", " : "") + order_by[i].ToString();
  }
  if (limit) out += " LIMIT " + std::to_string(*limit);
  if (offset) out += " OFFSET " + std::to_string(*offset);
  return out;
}

}  // namespace gnomon::query
