#include "src/query/query_compiler.h"

#include "src/query/binder/select_binder.h"
#include "src/query/optimizer/optimizer.h"
#include "src/query/physical/physical_planner.h"

namespace gnomon::query {

Result<CompiledQuery> CompileSelect(storage::Engine* engine, const CompileOptions& options, ExecutionContext* ctx,
                                    const SelectNode& node, const Statement& statement) {
  SelectBinderOptions bind;
  bind.database = options.database;
  bind.access_check = options.access_check;
  bind.now_ns = options.now_ns;
  bind.run_plan = [ctx, threads = options.threads](LogicalPtr plan) -> Result<Chunk> {
    Optimize(&plan, nullptr);
    GNOMON_ASSIGN_OR_RETURN(OperatorPtr root, PlanPhysical(std::move(plan), ctx, threads));
    Chunk rows;
    GNOMON_RETURN_IF_ERROR(DrainAll(root.get(), &rows, ctx));
    return rows;
  };
  SelectBinder binder(engine, std::move(bind));
  GNOMON_ASSIGN_OR_RETURN(LogicalPtr plan, binder.Bind(node, statement));
  CompiledQuery out;
  if (options.explain) out.logical_plan = ExplainLogical(*plan);
  Optimize(&plan, &out.rules);
  GNOMON_ASSIGN_OR_RETURN(out.root, PlanPhysical(std::move(plan), ctx, options.threads));
  return out;
}

}  // namespace gnomon::query
