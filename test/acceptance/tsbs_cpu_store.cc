#include "test/acceptance/tsbs_cpu_store.h"

#include <stdlib.h>

#include <filesystem>
#include <string_view>

#include "src/bench/generated_source.h"
#include "src/bench/tsbs_reference.h"
#include "src/server/ingest/line_protocol.h"

namespace gnomon::acceptance {
namespace {

constexpr size_t kLinesPerBatch = 10'000;
constexpr size_t kReadChunk = 1 << 20;
constexpr int64_t kHourNs = 3600LL * 1'000'000'000;
// 2023-06-12T00:00:00Z, the end of the data set (exclusive): the value of now() in every query.
constexpr int64_t kDataEndNs = 1686528000LL * 1'000'000'000;
// kSegmentsAndMemtables: rows before this many lines are flushed (18 h of 100 hosts every 10 s).
constexpr uint64_t kFlushedLinesMixed = 18 * 360 * 100;
// kSegments: flush after this many lines.
constexpr uint64_t kFlushEveryLines = 100'000;

// Collects an answer, appending each chunk's columns to the answer's.
class AnswerSink final : public query::ResultSink {
 public:
  explicit AnswerSink(QueryAnswer* out) : out_(out) {}
  Status Begin(const std::vector<query::ResultColumn>& columns) override {
    out_->columns = columns;
    out_->data.resize(columns.size());
    for (size_t c = 0; c < columns.size(); ++c) query::InitVector(&out_->data[c], columns[c].type);
    return Status::OK();
  }
  Status Chunk(const query::ResultChunk& chunk) override {
    if (chunk.columns.size() != out_->columns.size()) {
      return Status::Internal("chunk has " + std::to_string(chunk.columns.size()) + " columns, schema " +
                              std::to_string(out_->columns.size()));
    }
    for (size_t c = 0; c < chunk.columns.size(); ++c) {
      const ValueType type = chunk.columns[c].type;
      if (type != out_->columns[c].type && type != ValueType::kNull) {
        return Status::Internal("column " + out_->columns[c].name + " declared " +
                                std::string(ValueTypeName(out_->columns[c].type)) + ", chunk has " +
                                std::string(ValueTypeName(type)));
      }
      for (size_t r = 0; r < chunk.rows; ++r) query::AppendFrom(&out_->data[c], chunk.columns[c], r);
    }
    out_->rows += chunk.rows;
    return Status::OK();
  }
  Status End(const query::QueryStats&) override { return Status::OK(); }

 private:
  QueryAnswer* out_;
};

}  // namespace

const char* StoreLayoutName(StoreLayout layout) {
  switch (layout) {
    case StoreLayout::kSegments: return "segments";
    case StoreLayout::kSegmentsAndMemtables: return "segments+memtables";
  }
  return "?";
}

Result<std::unique_ptr<TsbsCpuStore>> TsbsCpuStore::Load(StoreLayout layout) {
  std::unique_ptr<TsbsCpuStore> store(new TsbsCpuStore());
  store->layout_ = layout;
  char tmpl[] = "/tmp/gnomon_accept_XXXXXX";
  if (::mkdtemp(tmpl) == nullptr) return Status::IOError("mkdtemp failed");
  store->dir_ = tmpl;

  storage::EngineOptions options;
  options.data_dir = store->dir_;
  options.wal_sync = storage::WalSyncMode::kNone;
  options.background_work = false;  // flushes happen exactly where Load calls them
  options.partition_duration_ns = layout == StoreLayout::kSegments ? 6 * kHourNs : 24 * kHourNs;
  GNOMON_ASSIGN_OR_RETURN(store->engine_, storage::Engine::Open(options));
  query::QueryEngineOptions query_options;
  query_options.worker_threads = 2;
  store->query_ = query::QueryEngine::Create(store->engine_.get(), query_options);
  auto input = bench::NewGeneratedByteSource(
      bench::TsbsReferenceConfig(*bench::FindTsbsReference(kDataSet)));
  GNOMON_RETURN_IF_ERROR(store->LoadFile(input.get()));
  return store;
}

TsbsCpuStore::~TsbsCpuStore() {
  query_.reset();
  engine_.reset();
  if (!dir_.empty()) {
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }
}

Status TsbsCpuStore::LoadFile(bench::ByteSource* input) {
  std::string buffer;
  size_t pos = 0;  // start of the unconsumed input in buffer
  bool eof = false;
  uint64_t flushed_at = 0;
  bool mixed_flushed = false;
  while (true) {
    // Find the end of the next kLinesPerBatch whole lines, reading more input as needed.
    size_t end = pos;
    size_t lines = 0;
    while (lines < kLinesPerBatch) {
      size_t nl = buffer.find('\n', end);
      if (nl != std::string::npos) {
        end = nl + 1;
        ++lines;
        continue;
      }
      if (eof) {
        if (end < buffer.size()) {
          end = buffer.size();  // a last line without '\n'
          ++lines;
        }
        break;
      }
      buffer.erase(0, pos);
      end -= pos;
      pos = 0;
      const size_t old = buffer.size();
      buffer.resize(old + kReadChunk);
      GNOMON_ASSIGN_OR_RETURN(size_t n, input->Read(buffer.data() + old, kReadChunk));
      buffer.resize(old + n);
      if (n == 0) {
        eof = true;
        GNOMON_RETURN_IF_ERROR(input->Close());
      }
    }
    if (lines == 0) break;

    storage::WriteBatch batch(kDatabase);
    const server::ParseResult parsed =
        server::ParseLineProtocol(std::string_view(buffer).substr(pos, end - pos), {}, &batch);
    if (parsed.lines_rejected != 0) {
      const server::LineError& e = parsed.errors.front();
      return Status::Corruption(std::string(kDataSet) + ": line " + std::to_string(rows_loaded_ + e.line) +
                                " rejected: " + e.reason);
    }
    GNOMON_RETURN_IF_ERROR(engine_->Write(batch, {}).status());
    rows_loaded_ += parsed.lines_accepted;
    pos = end;

    if (layout_ == StoreLayout::kSegments && rows_loaded_ - flushed_at >= kFlushEveryLines) {
      GNOMON_RETURN_IF_ERROR(engine_->Flush());
      flushed_at = rows_loaded_;
    }
    if (layout_ == StoreLayout::kSegmentsAndMemtables && !mixed_flushed &&
        rows_loaded_ >= kFlushedLinesMixed) {
      GNOMON_RETURN_IF_ERROR(engine_->Flush());
      mixed_flushed = true;
    }
  }
  if (layout_ == StoreLayout::kSegments) GNOMON_RETURN_IF_ERROR(engine_->Flush());
  return Status::OK();
}

Result<QueryAnswer> TsbsCpuStore::Run(const std::string& sql) {
  QueryAnswer answer;
  AnswerSink sink(&answer);
  query::QueryOptions options;
  options.database = kDatabase;
  options.now_ns = kDataEndNs;
  GNOMON_RETURN_IF_ERROR(query_->Execute(sql, options, &sink));
  return answer;
}

}  // namespace gnomon::acceptance
