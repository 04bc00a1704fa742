#include "src/query/query_engine.h"

#include <algorithm>
#include <memory>
#include <thread>

#include "src/base/task_pool.h"
#include "src/base/time_util.h"
#include "src/query/execution/basic_operators.h"
#include "src/query/execution/grouped_aggregate_operator.h"
#include "src/query/execution/last_value_aggregate_operator.h"
#include "src/query/execution/operator.h"
#include "src/query/execution/scan_operator.h"
#include "src/query/parser/parser.h"
#include "src/query/binder/select_binder.h"
#include "src/query/optimizer/storage_pushdown.h"
#include "src/query/query_compiler.h"

namespace gnomon::query {
namespace {

Chunk StringColumns(const std::vector<std::vector<std::string>>& rows, size_t ncols) {
  Chunk c;
  c.columns.resize(ncols);
  for (auto& v : c.columns) InitVector(&v, ValueType::kString);
  for (const auto& row : rows) {
    for (size_t i = 0; i < ncols; ++i) c.columns[i].str.push_back(row[i]);
  }
  c.rows = rows.size();
  return c;
}

Status Emit(ResultSink* sink, const std::vector<ResultColumn>& cols, const Chunk& chunk,
            const QueryStats& stats) {
  GNOMON_RETURN_IF_ERROR(sink->Begin(cols));
  if (chunk.rows > 0) GNOMON_RETURN_IF_ERROR(sink->Chunk(chunk));
  return sink->End(stats);
}

std::string SemanticType(storage::ColumnInfo::Kind k) {
  switch (k) {
    case storage::ColumnInfo::Kind::kTime: return "TIMESTAMP";
    case storage::ColumnInfo::Kind::kTag: return "TAG";
    case storage::ColumnInfo::Kind::kField: return "FIELD";
  }
  return "";
}

// A grouped aggregate read straight by a projection need not emit the group keys the projection
// does not refer to (GROUP BY hour, hostname selecting only the hour: 52,000 host names per
// double-groupby-all answer, built and dropped).
// Lets the last-value aggregate hand tag values to the sink as views: its chunks reach the sink
// as they are, or through a projection that only moves columns.
void AllowStringViews(Operator* root) {
  Operator* op = root;
  if (auto* projection = dynamic_cast<ProjectionOperator*>(root)) {
    if (!projection->MovesEveryColumn()) return;
    op = projection->child();
  }
  if (auto* last = dynamic_cast<LastValueAggregateOperator*>(op)) last->SetStringViews(true);
}

void SkipUnreadGroupKeys(Operator* root) {
  auto* projection = dynamic_cast<ProjectionOperator*>(root);
  if (projection == nullptr) return;
  auto* aggregate = dynamic_cast<GroupedAggregateOperator*>(projection->child());
  if (aggregate == nullptr) return;
  for (size_t c = 0; c < aggregate->schema().size(); ++c) {
    if (!projection->ReadsInput(c)) aggregate->SetOutputUnread(c);
  }
}

class QueryEngineImpl final : public QueryEngine {
 public:
  QueryEngineImpl(storage::Engine* storage, const QueryEngineOptions& options)
      : storage_(storage), options_(options) {
    if (options_.worker_threads <= 0) {
      options_.worker_threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    }
    // Helpers for operators' parallel work; the thread running a query is the other one.
    pool_ = std::make_unique<TaskPool>(options_.worker_threads - 1);
  }

  TaskPool* pool() override { return pool_.get(); }

  Status Execute(std::string_view sql, const QueryOptions& options, ResultSink* sink) override {
    auto start = std::chrono::steady_clock::now();
    GNOMON_ASSIGN_OR_RETURN(auto statement, ParseSql(sql));
    ExecutionContext ctx;
    ctx.threads = options_.worker_threads;
    ctx.pool = pool_.get();
    int64_t timeout = options.timeout_ms >= 0 ? options.timeout_ms : options_.default_timeout_ms;
    if (timeout > 0) ctx.deadline = start + std::chrono::milliseconds(timeout);
    ctx.memory_limit = options.memory_limit_bytes >= 0 ? static_cast<size_t>(options.memory_limit_bytes)
                                                       : options_.default_memory_limit_bytes;
    ctx.max_result_rows = options.max_result_rows >= 0 ? static_cast<size_t>(options.max_result_rows)
                                                       : options_.max_result_rows;
    CompileOptions popts;
    popts.database = options.database;
    popts.access_check = options.access_check;
    popts.now_ns = options.now_ns != 0 ? options.now_ns : NowNanos();
    popts.threads = options_.worker_threads;
    Status s = Run(*statement, popts, &ctx, sink, start);
    return s;
  }

 private:
  static Status Allowed(const CompileOptions& popts, const std::string& database, bool write) {
    return popts.access_check ? popts.access_check(database, write) : Status::OK();
  }

  Status Run(const Statement& st, const CompileOptions& popts, ExecutionContext* ctx, ResultSink* sink,
             std::chrono::steady_clock::time_point start) {
    switch (st.type) {
      case StatementType::kSelect: {
        if (st.As<SelectStatement>().node->from != nullptr) {
          GNOMON_RETURN_IF_ERROR(Allowed(popts, popts.database, false));
        }
        if (!storage_->DatabaseExists(popts.database) &&
            st.As<SelectStatement>().node->from != nullptr) {
          return Status::NotFound("database " + popts.database + " not found");
        }
        GNOMON_ASSIGN_OR_RETURN(auto compiled, CompileSelect(storage_, popts, ctx, *st.As<SelectStatement>().node, st));
        OperatorPtr root = std::move(compiled.root);
        if (sink->AcceptsConstantVectors()) AllowConstantTags(root.get());
        if (sink->AcceptsStringViews()) AllowStringViews(root.get());
        SkipUnreadGroupKeys(root.get());
        GNOMON_RETURN_IF_ERROR(sink->Begin(root->schema()));
        while (true) {
          GNOMON_RETURN_IF_ERROR(ctx->Check());
          Chunk chunk;
          bool done = false;
          GNOMON_RETURN_IF_ERROR(root->Next(&chunk, &done));
          if (chunk.rows > 0) {
            ctx->stats.rows_returned += chunk.rows;
            if (ctx->max_result_rows != 0 && ctx->stats.rows_returned > ctx->max_result_rows) {
              return Status::ResourceExhausted("the result has more than " + std::to_string(ctx->max_result_rows) +
                                               " rows (max-result-rows): add a LIMIT or narrow the query");
            }
            GNOMON_RETURN_IF_ERROR(sink->Chunk(chunk));
          }
          if (done) break;
        }
        ctx->stats.elapsed_ns = Elapsed(start);
        return sink->End(ctx->stats);
      }
      case StatementType::kExplain: {
        const auto& ex = st.As<ExplainStatement>();
        if (ex.statement->type != StatementType::kSelect) {
          return Status::InvalidArgument("EXPLAIN supports SELECT statements");
        }
        GNOMON_RETURN_IF_ERROR(Allowed(popts, popts.database, false));
        if (!storage_->DatabaseExists(popts.database)) {
          return Status::NotFound("database " + popts.database + " not found");
        }
        CompileOptions explain = popts;
        explain.explain = true;
        GNOMON_ASSIGN_OR_RETURN(auto compiled, CompileSelect(storage_, explain, ctx,
                                                             *ex.statement->As<SelectStatement>().node, *ex.statement));
        OperatorPtr root = std::move(compiled.root);
        if (ex.analyze) {
          while (true) {
            GNOMON_RETURN_IF_ERROR(ctx->Check());
            Chunk chunk;
            bool done = false;
            GNOMON_RETURN_IF_ERROR(root->Next(&chunk, &done));
            ctx->stats.rows_returned += chunk.rows;
            if (done) break;
          }
        }
        std::vector<std::vector<std::string>> rows;
        auto add_lines = [&](const std::string& text) {
          size_t pos = 0;
          while (pos < text.size()) {
            size_t nl = text.find('\n', pos);
            rows.push_back({"  " + text.substr(pos, nl - pos)});
            pos = nl + 1;
          }
        };
        rows.push_back({"Logical plan:"});
        add_lines(compiled.logical_plan);
        std::string fired;
        for (const std::string& r : compiled.rules) fired += (fired.empty() ? "" : ", ") + r;
        rows.push_back({"Rules applied: " + (fired.empty() ? std::string("none") : fired)});
        rows.push_back({"Physical plan:"});
        add_lines(ExplainTree(*root, ex.analyze));
        if (ex.analyze) {
          const QueryStats& s = ctx->stats;
          rows.push_back({"series scanned: " + std::to_string(s.series_scanned) +
                          ", blocks decoded: " + std::to_string(s.blocks_decoded) +
                          ", blocks answered from statistics: " + std::to_string(s.blocks_from_stats) +
                          ", blocks pruned: " + std::to_string(s.blocks_pruned) +
                          ", rows scanned: " + std::to_string(s.rows_scanned) +
                          ", rows produced: " + std::to_string(s.rows_returned)});
          char buf[64];
          std::snprintf(buf, sizeof(buf), "execution time: %.3f ms", Elapsed(start) / 1e6);
          rows.push_back({buf});
        }
        ctx->stats.elapsed_ns = Elapsed(start);
        return Emit(sink, {{"plan", ValueType::kString}}, StringColumns(rows, 1), ctx->stats);
      }
      case StatementType::kShow: return Show(st.As<ShowStatement>(), popts, sink);
      case StatementType::kCreateDatabase: {
        const auto& c = st.As<CreateDatabaseStatement>();
        GNOMON_RETURN_IF_ERROR(Allowed(popts, c.name, true));
        if (storage_->DatabaseExists(c.name)) {
          if (!c.if_not_exists) return Status::AlreadyExists("database " + c.name + " already exists");
        } else {
          GNOMON_RETURN_IF_ERROR(storage_->CreateDatabase(c.name, {}));
        }
        return Emit(sink, {}, Chunk{}, ctx->stats);
      }
      case StatementType::kDrop: {
        const auto& d = st.As<DropStatement>();
        GNOMON_RETURN_IF_ERROR(Allowed(
            popts, d.kind == DropKind::kDatabase ? d.name : (d.schema_name.empty() ? popts.database : d.schema_name),
            true));
        Status s;
        if (d.kind == DropKind::kDatabase) {
          s = storage_->DropDatabase(d.name);
        } else {
          s = storage_->DropTable(d.schema_name.empty() ? popts.database : d.schema_name, d.name);
        }
        if (!s.ok() && !(s.IsNotFound() && d.if_exists)) return s;
        return Emit(sink, {}, Chunk{}, ctx->stats);
      }
      case StatementType::kDelete: return Delete(st.As<DeleteStatement>(), popts, ctx, sink);
    }
    return Status::Internal("unknown statement");
  }

  Status Show(const ShowStatement& s, const CompileOptions& popts, ResultSink* sink) {
    std::vector<std::vector<std::string>> rows;
    QueryStats stats;
    switch (s.kind) {
      case ShowKind::kDatabases:
        for (const std::string& db : storage_->ListDatabases()) {
          if (Allowed(popts, db, false).ok()) rows.push_back({db});
        }
        return Emit(sink, {{"name", ValueType::kString}}, StringColumns(rows, 1), stats);
      case ShowKind::kTables: {
        const std::string db = s.schema_name.empty() ? popts.database : s.schema_name;
        GNOMON_RETURN_IF_ERROR(Allowed(popts, db, false));
        GNOMON_ASSIGN_OR_RETURN(auto tables, storage_->ListTables(db));
        for (const std::string& t : tables) rows.push_back({t});
        return Emit(sink, {{"name", ValueType::kString}}, StringColumns(rows, 1), stats);
      }
      case ShowKind::kColumns: {
        const std::string db = s.schema_name.empty() ? popts.database : s.schema_name;
        GNOMON_RETURN_IF_ERROR(Allowed(popts, db, false));
        GNOMON_ASSIGN_OR_RETURN(auto info, storage_->DescribeTable(db, s.table_name));
        for (const auto& c : info.columns) {
          rows.push_back({c.name, std::string(ValueTypeName(c.type)), SemanticType(c.kind)});
        }
        return Emit(sink,
                    {{"column_name", ValueType::kString}, {"data_type", ValueType::kString},
                     {"semantic_type", ValueType::kString}},
                    StringColumns(rows, 3), stats);
      }
    }
    return Status::Internal("unknown SHOW");
  }

  Status Delete(const DeleteStatement& d, const CompileOptions& popts, ExecutionContext* ctx,
                ResultSink* sink) {
    const std::string db = d.schema_name.empty() ? popts.database : d.schema_name;
    GNOMON_RETURN_IF_ERROR(Allowed(popts, db, true));
    GNOMON_ASSIGN_OR_RETURN(auto reader, storage_->OpenTable(db, d.table_name));
    GNOMON_ASSIGN_OR_RETURN(auto push, DeletePushdown(d, *reader, popts.now_ns));
    std::optional<std::vector<storage::SeriesId>> series;
    if (push.series) series = *push.series;
    if (!series || !series->empty()) {
      GNOMON_RETURN_IF_ERROR(storage_->DeleteRows(db, d.table_name, series, push.min_time, push.max_time));
    }
    return Emit(sink, {}, Chunk{}, ctx->stats);
  }

  // What DELETE removes: storage's time range and series set, the whole of its WHERE.
  static Result<StoragePushdown> DeletePushdown(const DeleteStatement& d, const storage::TableReader& reader,
                                                int64_t now_ns) {
    if (d.where == nullptr) return StoragePushdown{};
    BindContext ctx;
    ctx.now_ns = now_ns;
    ctx.qualifiers = {d.table_name};
    const std::vector<ScanColumn> columns = ScanColumnsOf(reader.Info());
    for (const ScanColumn& c : columns) ctx.columns.push_back(ResultColumn{c.name, c.type});
    GNOMON_ASSIGN_OR_RETURN(std::vector<Predicate> predicates, BindConjuncts(*d.where, ctx));
    StoragePushdown push = ExtractStoragePushdown(&predicates, columns, reader);
    if (!predicates.empty()) {
      return Status::InvalidArgument(
          "DELETE supports only time ranges and tag equality / IN predicates; cannot use: " + predicates[0].text);
    }
    return push;
  }

  static int64_t Elapsed(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start)
        .count();
  }

  storage::Engine* storage_;
  QueryEngineOptions options_;
  std::unique_ptr<TaskPool> pool_;
};

}  // namespace

std::unique_ptr<QueryEngine> QueryEngine::Create(storage::Engine* storage,
                                                 const QueryEngineOptions& options) {
  return std::make_unique<QueryEngineImpl>(storage, options);
}

}  // namespace gnomon::query
