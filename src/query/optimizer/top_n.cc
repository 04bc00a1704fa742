// top_n: a LIMIT directly over a sort keeps only the first limit + offset rows while sorting.
#include "src/query/optimizer/optimizer.h"
#include "src/query/optimizer/rules.h"

namespace gnomon::query::rules {

bool TopN(LogicalPtr* root) {
  bool changed = false;
  ForEachSlotBottomUp(root, [&](LogicalPtr* slot) {
    LogicalNode* n = slot->get();
    if (n->kind != LogicalKind::kLimit || n->children[0]->kind != LogicalKind::kSort) return;
    const auto& limit = n->As<LogicalLimit>();
    auto& sort = n->children[0]->As<LogicalSort>();
    if (limit.limit < 0 || sort.top_n >= 0) return;
    sort.top_n = limit.limit + limit.offset;
    changed = true;
  });
  return changed;
}

}  // namespace gnomon::query::rules
