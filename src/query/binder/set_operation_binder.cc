// UNION / INTERSECT / EXCEPT: both operands are bound as queries of their own, their column
// types are unified (a cast where an operand needs one), and ORDER BY / LIMIT apply to the
// combined rows, naming its columns by the left operand's names or by position.
#include "src/query/binder/select_binder.h"

namespace gnomon::query {
namespace {

const char* OperationName(SetOperation op) {
  switch (op) {
    case SetOperation::kUnion: return "UNION";
    case SetOperation::kIntersect: return "INTERSECT";
    case SetOperation::kExcept: return "EXCEPT";
    case SetOperation::kNone: break;
  }
  return "";
}

SetOperationKind SetOperationKindOf(const SelectNode& node) {
  switch (node.set_op) {
    case SetOperation::kIntersect: return node.set_all ? SetOperationKind::kIntersectAll : SetOperationKind::kIntersect;
    case SetOperation::kExcept: return node.set_all ? SetOperationKind::kExceptAll : SetOperationKind::kExcept;
    default: return node.set_all ? SetOperationKind::kUnionAll : SetOperationKind::kUnion;
  }
}

bool IsNumber(ValueType t) {
  return t == ValueType::kInt64 || t == ValueType::kUInt64 || t == ValueType::kFloat64 || t == ValueType::kBool;
}

// The type both operands' column i become, as PostgreSQL resolves UNION types.
Result<ValueType> UnifiedType(ValueType a, ValueType b, const char* op) {
  if (a == b) return a;
  if (a == ValueType::kNull) return b;
  if (b == ValueType::kNull) return a;
  if (IsNumber(a) && IsNumber(b) && a != ValueType::kBool && b != ValueType::kBool) {
    return a == ValueType::kFloat64 || b == ValueType::kFloat64 || a == ValueType::kUInt64 || b == ValueType::kUInt64
               ? ValueType::kFloat64
               : ValueType::kInt64;
  }
  return Status::InvalidArgument(std::string(op) + " types " + std::string(ValueTypeName(a)) + " and " + std::string(ValueTypeName(b)) +
                                 " cannot be matched");
}

// `input` with its columns cast to `types` (unchanged when they already are).
LogicalPtr CastColumns(LogicalPtr input, const std::vector<ResultColumn>& types) {
  bool same = true;
  for (size_t i = 0; i < types.size(); ++i) same = same && input->schema[i].type == types[i].type;
  if (same) return input;
  auto project = std::make_unique<LogicalProject>();
  for (size_t i = 0; i < types.size(); ++i) {
    project->exprs.push_back(MakeCast(MakeColumnRef(static_cast<int>(i), input->schema[i].type), types[i].type));
    project->schema.push_back(ResultColumn{input->schema[i].name, types[i].type});
  }
  project->children.push_back(std::move(input));
  return project;
}

// ORDER BY over a set operation: an output column's name or position.
Result<SortKey> OrderKey(const OrderByItem& o, const std::vector<ResultColumn>& schema) {
  int column = -1;
  const ParsedExpression& e = *o.expression;
  if (e.expression_class == ExpressionClass::kConstant &&
      e.As<ConstantExpression>().kind == ConstantKind::kInteger) {
    const int64_t n = e.As<ConstantExpression>().int_value;
    if (n < 1 || n > static_cast<int64_t>(schema.size())) {
      return Status::InvalidArgument("ORDER BY position " + std::to_string(n) + " is not in the select list");
    }
    column = static_cast<int>(n - 1);
  } else if (e.expression_class == ExpressionClass::kColumnRef && e.As<ColumnRefExpression>().names.size() == 1) {
    BindContext context;
    context.columns = schema;
    column = FindColumn(context, e.As<ColumnRefExpression>().column_name());
  }
  if (column < 0) {
    return Status::InvalidArgument("ORDER BY of a UNION, INTERSECT or EXCEPT names a result column (or its "
                                   "position), not: " + e.ToString());
  }
  SortKey k;
  k.column = column;
  k.descending = o.descending;
  k.nulls_first = o.nulls == NullsOrder::kDefault ? o.descending : o.nulls == NullsOrder::kFirst;
  return k;
}

}  // namespace

Result<LogicalPtr> SelectBinder::BindSetOperation(const SelectNode& node, const Statement& stmt,
                                                  const CteScope& scope) {
  const char* op = OperationName(node.set_op);
  GNOMON_ASSIGN_OR_RETURN(LogicalPtr left, BindQuery(*node.set_left, stmt, scope));
  GNOMON_ASSIGN_OR_RETURN(LogicalPtr right, BindQuery(*node.set_right, stmt, scope));
  if (left->schema.size() != right->schema.size()) {
    return Status::InvalidArgument(std::string("each ") + op + " query must have the same number of columns (" +
                                   std::to_string(left->schema.size()) + " and " +
                                   std::to_string(right->schema.size()) + ")");
  }
  std::vector<ResultColumn> schema = left->schema;
  for (size_t i = 0; i < schema.size(); ++i) {
    GNOMON_ASSIGN_OR_RETURN(schema[i].type, UnifiedType(left->schema[i].type, right->schema[i].type, op));
  }
  auto set = std::make_unique<LogicalSetOperation>();
  set->op = SetOperationKindOf(node);
  set->schema = schema;
  set->children.push_back(CastColumns(std::move(left), schema));
  set->children.push_back(CastColumns(std::move(right), schema));
  LogicalPtr current = std::move(set);

  if (!node.order_by.empty()) {
    auto sort = std::make_unique<LogicalSort>();
    for (const OrderByItem& o : node.order_by) {
      GNOMON_ASSIGN_OR_RETURN(SortKey k, OrderKey(o, schema));
      sort->keys.push_back(k);
      sort->text += (sort->text.empty() ? "" : ", ") + o.ToString();
    }
    sort->schema = schema;
    sort->children.push_back(std::move(current));
    current = std::move(sort);
  }
  if (node.limit || node.offset) {
    auto limit = std::make_unique<LogicalLimit>();
    limit->limit = node.limit.value_or(-1);
    limit->offset = node.offset.value_or(0);
    limit->schema = schema;
    limit->children.push_back(std::move(current));
    current = std::move(limit);
  }
  return current;
}

}  // namespace gnomon::query
