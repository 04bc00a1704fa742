// /v1/sql over real sockets with the real storage engine and QueryEngine: small answers buffered
// with Content-Length, large ones streamed chunked, errors before the buffer limit with their
// status, and a client that leaves (or a HEAD) stopping the query.
#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <mutex>

#include "src/query/query_engine.h"
#include "src/server/api/sql_endpoint.h"
#include "src/server/http/http_server.h"
#include "src/server/http/http_test_client.h"
#include "src/storage/engine.h"
#include "src/storage/storage_test_util.h"

namespace gnomon::server::api {
namespace {

using http::HttpRequestOnce;
using http::TestHttpClient;

constexpr int64_t kT0 = 1686441600000000000LL;  // 2023-06-11T00:00:00Z
constexpr int64_t kSec = 1000000000LL;
constexpr int kHosts = 50;
constexpr int kTimes = 8000;
constexpr uint64_t kRows = static_cast<uint64_t>(kHosts) * kTimes;  // ~20 MB of JSON

// One storage engine with `cpu` (kRows rows) shared by every test: writing it is the slow part.
class SqlData : public ::testing::Environment {
 public:
  static storage::Engine* engine() { return engine_.get(); }

  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("gnomon_sql_stream_test_" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
    storage::EngineOptions options;
    options.data_dir = dir_.string();
    options.background_work = false;
    options.wal_sync = storage::WalSyncMode::kNone;
    auto e = storage::Engine::Open(options);
    ASSERT_TRUE(e.ok()) << e.status().ToString();
    engine_ = std::move(e).value();
    for (int t0 = 0; t0 < kTimes; t0 += 1000) {
      storage::WriteBatch batch("db");
      storage::TableBatch* table = batch.Table("cpu");
      std::vector<uint32_t> series;
      for (int h = 0; h < kHosts; ++h) {
        series.push_back(
            table->AddSeries(storage::TagSet{{"hostname", "host_" + std::to_string(h)},
                                             {"region", h % 2 ? "us-east-1" : "eu-west-1"}}));
      }
      for (int t = t0; t < t0 + 1000; ++t) {
        for (int h = 0; h < kHosts; ++h) {
          table->BeginRow(series[h], kT0 + t * 10 * kSec, 1);
          uint32_t f;
          ASSERT_TRUE(table->FindOrAddField("usage_user", ValueType::kInt64, &f));
          table->AddInt(f, (t * 7 + h) % 100);
          ASSERT_TRUE(table->FindOrAddField("usage_system", ValueType::kFloat64, &f));
          table->AddFloat(f, t * 0.25);
        }
      }
      auto written = engine_->Write(batch, {});
      ASSERT_TRUE(written.ok()) << written.status().ToString();
    }
    ASSERT_TRUE(engine_->Flush().ok());
  }
  void TearDown() override {
    engine_.reset();
    std::filesystem::remove_all(dir_);
  }

 private:
  static std::unique_ptr<storage::Engine> engine_;
  std::filesystem::path dir_;
};
std::unique_ptr<storage::Engine> SqlData::engine_;
[[maybe_unused]] const auto* const kData = ::testing::AddGlobalTestEnvironment(new SqlData);

// A QueryEngine that runs the real one and records how each query ended and how many rows it
// handed to the endpoint's sink; `fail_after_rows` makes the query fail midway (as a corrupt
// block found late would).
class ObservedEngine final : public query::QueryEngine {
 public:
  explicit ObservedEngine(query::QueryEngine* real) : real_(real) {}

  TaskPool* pool() override { return real_->pool(); }

  Status Execute(std::string_view sql, const query::QueryOptions& options,
                 query::ResultSink* sink) override {
    CountingSink counting(sink, fail_after_rows.load());
    Status s = real_->Execute(sql, options, &counting);
    std::lock_guard<std::mutex> lock(mu_);
    last_status_ = s;
    last_rows_ = counting.rows;
    ++finished_;
    cv_.notify_all();
    return s;
  }

  // Waits for the `n`th query to finish; returns its status and row count.
  std::pair<Status, uint64_t> WaitFinished(int n) {
    std::unique_lock<std::mutex> lock(mu_);
    cv_.wait_for(lock, std::chrono::seconds(120), [&] { return finished_ >= n; });
    return {finished_ >= n ? last_status_ : Status::Timeout("query never finished"), last_rows_};
  }

  std::atomic<uint64_t> fail_after_rows{0};  // 0: never

 private:
  struct CountingSink final : query::ResultSink {
    CountingSink(query::ResultSink* inner, uint64_t fail_after)
        : inner(inner), fail_after(fail_after) {}
    Status Begin(const std::vector<query::ResultColumn>& columns) override {
      return inner->Begin(columns);
    }
    Status Chunk(const query::ResultChunk& chunk) override {
      if (fail_after > 0 && rows >= fail_after) {
        return Status::Corruption("segment 000042.seg: block checksum mismatch");
      }
      rows += chunk.rows;
      return inner->Chunk(chunk);
    }
    Status End(const query::QueryStats& stats) override { return inner->End(stats); }
    bool AcceptsConstantVectors() const override { return inner->AcceptsConstantVectors(); }
    query::ResultSink* inner;
    uint64_t fail_after;
    uint64_t rows = 0;
  };

  query::QueryEngine* real_;
  std::mutex mu_;
  std::condition_variable cv_;
  Status last_status_;
  uint64_t last_rows_ = 0;
  int finished_ = 0;
};

// Checks that `text` is one JSON value (RFC 8259 grammar, no duplicate-key or number-range
// checks) and counts the elements of the top-level object's "rows" array.
class JsonChecker {
 public:
  explicit JsonChecker(std::string_view text) : s_(text) {}

  bool Valid(uint64_t* rows) {
    rows_ = rows;
    SkipSpace();
    if (!Value(0)) return false;
    SkipSpace();
    return pos_ == s_.size();
  }

 private:
  bool Value(int depth) {
    if (pos_ >= s_.size() || depth > 64) return false;
    char c = s_[pos_];
    if (c == '{') return Object(depth);
    if (c == '[') return Array(depth, false);
    if (c == '"') return String(nullptr);
    if (c == '-' || (c >= '0' && c <= '9')) return Number();
    for (std::string_view lit : {"true", "false", "null"}) {
      if (s_.substr(pos_, lit.size()) == lit) {
        pos_ += lit.size();
        return true;
      }
    }
    return false;
  }
  bool Object(int depth) {
    ++pos_;
    SkipSpace();
    if (Peek('}')) return ++pos_, true;
    for (;;) {
      std::string key;
      SkipSpace();
      if (!String(&key)) return false;
      SkipSpace();
      if (!Peek(':')) return false;
      ++pos_;
      SkipSpace();
      bool ok = depth == 0 && key == "rows" ? Array(depth + 1, true) : Value(depth + 1);
      if (!ok) return false;
      SkipSpace();
      if (Peek('}')) return ++pos_, true;
      if (!Peek(',')) return false;
      ++pos_;
    }
  }
  bool Array(int depth, bool count) {
    if (!Peek('[')) return false;
    ++pos_;
    SkipSpace();
    if (Peek(']')) return ++pos_, true;
    for (;;) {
      SkipSpace();
      if (!Value(depth + 1)) return false;
      if (count && rows_ != nullptr) ++*rows_;
      SkipSpace();
      if (Peek(']')) return ++pos_, true;
      if (!Peek(',')) return false;
      ++pos_;
    }
  }
  bool String(std::string* out) {
    if (!Peek('"')) return false;
    for (++pos_; pos_ < s_.size(); ++pos_) {
      char c = s_[pos_];
      if (c == '"') return ++pos_, true;
      if (static_cast<unsigned char>(c) < 0x20) return false;
      if (c == '\\') {
        if (++pos_ >= s_.size()) return false;
        c = s_[pos_];
        if (c == 'u') {
          if (pos_ + 4 >= s_.size()) return false;
          for (int i = 1; i <= 4; ++i) {
            if (!std::isxdigit(static_cast<unsigned char>(s_[pos_ + i]))) return false;
          }
          pos_ += 4;
          continue;
        }
        if (std::string_view("\"\\/bfnrt").find(c) == std::string_view::npos) return false;
      }
      if (out) out->push_back(c);
    }
    return false;
  }
  bool Number() {
    size_t start = pos_;
    if (Peek('-')) ++pos_;
    auto digits = [&] {
      size_t d = pos_;
      while (pos_ < s_.size() && s_[pos_] >= '0' && s_[pos_] <= '9') ++pos_;
      return pos_ > d;
    };
    if (!digits()) return false;
    if (Peek('.')) {
      ++pos_;
      if (!digits()) return false;
    }
    if (Peek('e') || Peek('E')) {
      ++pos_;
      if (Peek('+') || Peek('-')) ++pos_;
      if (!digits()) return false;
    }
    return pos_ > start;
  }
  bool Peek(char c) const { return pos_ < s_.size() && s_[pos_] == c; }
  void SkipSpace() {
    while (pos_ < s_.size() &&
           std::string_view(" \t\r\n").find(s_[pos_]) != std::string_view::npos) {
      ++pos_;
    }
  }

  std::string_view s_;
  size_t pos_ = 0;
  uint64_t* rows_ = nullptr;
};

class SqlStreamTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_NE(SqlData::engine(), nullptr);
    query_ = query::QueryEngine::Create(SqlData::engine(), {});
    observed_ = std::make_unique<ObservedEngine>(query_.get());
    router_.Add(http::Method::kGet, "/v1/sql", "sql", MakeSqlHandler(observed_.get()));
    http::ServerOptions options;
    options.port = 0;
    options.io_threads = 2;
    options.worker_threads = 4;
    server_ = std::make_unique<http::HttpServer>(options, &router_, &stats_);
    ASSERT_TRUE(server_->Start().ok());
  }
  void TearDown() override { server_->Shutdown(std::chrono::seconds(10)); }

  std::unique_ptr<TestHttpClient> Connect() {
    auto c = TestHttpClient::Connect("127.0.0.1", server_->port());
    EXPECT_TRUE(c.ok()) << c.status().ToString();
    return c.ok() ? std::move(*c) : nullptr;
  }
  static std::string Target(std::string_view sql, std::string_view extra = "") {
    std::string t = "/v1/sql?db=db&sql=";
    for (char c : sql) {
      if (std::isalnum(static_cast<unsigned char>(c)) || c == '*' || c == '_') {
        t.push_back(c);
      } else {
        char buf[4];
        std::snprintf(buf, sizeof(buf), "%%%02X", static_cast<unsigned char>(c));
        t += buf;
      }
    }
    t += extra;
    return t;
  }

  std::unique_ptr<query::QueryEngine> query_;
  std::unique_ptr<ObservedEngine> observed_;
  http::Router router_;
  http::HttpStats stats_;
  std::unique_ptr<http::HttpServer> server_;
};

TEST_F(SqlStreamTest, LargeResultStreamsAsChunkedJson) {
  auto client = Connect();
  auto reply = client->Send("GET", Target("SELECT * FROM cpu"));
  ASSERT_TRUE(reply.ok()) << reply.status().ToString();
  EXPECT_EQ(reply->status, 200);
  EXPECT_EQ(reply->Header("transfer-encoding"), "chunked");
  EXPECT_EQ(reply->Header("content-length"), "");
  EXPECT_EQ(reply->Header("content-type"), "application/json");
  EXPECT_GT(reply->body.size(), ResultStreamLimits().buffer_bytes * 4);
  uint64_t rows = 0;
  EXPECT_TRUE(JsonChecker(reply->body).Valid(&rows)) << reply->body.substr(0, 300);
  EXPECT_EQ(rows, kRows);
  EXPECT_EQ(reply->body.rfind("{\"columns\":[{\"name\":\"time\",", 0), 0u)
      << reply->body.substr(0, 200);
  EXPECT_TRUE(observed_->WaitFinished(1).first.ok());
  // Keep-alive goes on after a streamed answer.
  auto small = client->Send("GET", Target("SELECT count(*) FROM cpu"));
  ASSERT_TRUE(small.ok()) << small.status().ToString();
  EXPECT_EQ(small->status, 200);
  std::string count_row = std::to_string(kRows);
  count_row.insert(count_row.begin(), '[');
  count_row.push_back(']');
  EXPECT_NE(small->body.find(count_row), std::string::npos) << small->body;
  auto stats = stats_.Read();
  EXPECT_EQ(stats.bytes_sent, reply->body.size() + small->body.size());
}

TEST_F(SqlStreamTest, LargeCsvResultStreams) {
  auto reply =
      HttpRequestOnce("127.0.0.1", server_->port(), "GET",
                      Target("SELECT time, hostname, usage_user FROM cpu", "&format=csv&epoch=s"));
  ASSERT_TRUE(reply.ok()) << reply.status().ToString();
  EXPECT_EQ(reply->status, 200);
  EXPECT_EQ(reply->Header("transfer-encoding"), "chunked");
  EXPECT_EQ(reply->Header("content-type"), "text/csv; charset=utf-8");
  size_t lines = 0;
  for (char c : reply->body) lines += c == '\n';
  EXPECT_EQ(lines, kRows + 1);
  EXPECT_EQ(reply->body.rfind("time,hostname,usage_user\r\n", 0), 0u);
  EXPECT_EQ(reply->body.substr(reply->body.size() - 2), "\r\n");
}

TEST_F(SqlStreamTest, ConstantTagColumnsAnswerAsExpandedOnes) {
  // SELECT * over many series sends tag columns as constant vectors to the writer; under a LIMIT
  // (an operator between scan and sink) they are materialised row by row. Same bytes either way,
  // in JSON and CSV, but for the timing at the end.
  auto body_of = [&](const std::string& sql, const std::string& params) {
    auto reply = HttpRequestOnce("127.0.0.1", server_->port(), "GET", Target(sql, params));
    EXPECT_TRUE(reply.ok()) << reply.status().ToString();
    std::string body = reply.ok() ? reply->body : "";
    const size_t timing = body.rfind(",\"execution_time_ms\"");
    return timing == std::string::npos ? body : body.substr(0, timing);
  };
  for (const std::string params : {"", "&format=csv"}) {
    for (const std::string sql : {"SELECT * FROM cpu WHERE usage_user > 90",
                                  "SELECT region, time, hostname, usage_user FROM cpu WHERE time < '2023-06-11T00:30:00Z'"}) {
      const std::string constant = body_of(sql, params);
      const std::string expanded = body_of(sql + " LIMIT 100000000", params);
      EXPECT_GT(constant.size(), 100000u) << sql;
      EXPECT_EQ(constant, expanded) << sql << params;
    }
  }
}

TEST_F(SqlStreamTest, SmallResultHasContentLength) {
  auto reply = HttpRequestOnce("127.0.0.1", server_->port(), "GET",
                               Target("SELECT * FROM cpu WHERE hostname = 'host_3' LIMIT 100"));
  ASSERT_TRUE(reply.ok()) << reply.status().ToString();
  EXPECT_EQ(reply->status, 200);
  EXPECT_EQ(reply->Header("transfer-encoding"), "");
  EXPECT_EQ(reply->Header("content-length"), std::to_string(reply->body.size()));
  uint64_t rows = 0;
  EXPECT_TRUE(JsonChecker(reply->body).Valid(&rows)) << reply->body;
  EXPECT_EQ(rows, 100u);
}

TEST_F(SqlStreamTest, ErrorsBeforeTheBufferLimitKeepTheirStatus) {
  auto client = Connect();
  auto unknown_table = client->Send("GET", Target("SELECT * FROM nope"));
  ASSERT_TRUE(unknown_table.ok());
  EXPECT_EQ(unknown_table->status, 400);
  EXPECT_EQ(unknown_table->Header("content-type"), "application/json");
  EXPECT_EQ(unknown_table->body.rfind("{\"error\":", 0), 0u) << unknown_table->body;
  EXPECT_TRUE(JsonChecker(unknown_table->body).Valid(nullptr));
  auto syntax = client->Send("GET", Target("SELEC * FROM cpu"));
  ASSERT_TRUE(syntax.ok());
  EXPECT_EQ(syntax->status, 400);
  auto unknown_db = client->Send("GET", "/v1/sql?db=nodb&sql=SELECT%20*%20FROM%20cpu");
  ASSERT_TRUE(unknown_db.ok());
  EXPECT_EQ(unknown_db->status, 404);
  // A query that fails after some rows but within the buffer limit still gets its status.
  observed_->fail_after_rows = 1;
  auto early_failure = client->Send("GET", Target("SELECT * FROM cpu"));
  ASSERT_TRUE(early_failure.ok());
  EXPECT_EQ(early_failure->status, 500);
  EXPECT_NE(early_failure->body.find("checksum mismatch"), std::string::npos);
  EXPECT_TRUE(early_failure->keep_alive);
}

TEST_F(SqlStreamTest, FailureAfterStreamingBeganCutsTheBody) {
  observed_->fail_after_rows = kRows / 2;
  auto client = Connect();
  auto reply = client->Send("GET", Target("SELECT * FROM cpu"));
  EXPECT_FALSE(reply.ok()) << "a cut chunked body must not read as a complete answer";
  EXPECT_TRUE(client->PeerClosed());
  auto [status, rows] = observed_->WaitFinished(1);
  EXPECT_EQ(status.code(), Status::Code::kCorruption);
  EXPECT_GE(rows, kRows / 2);
  EXPECT_LT(rows, kRows);
}

TEST_F(SqlStreamTest, ClientLeavingMidStreamStopsTheQuery) {
  {
    auto client = Connect();
    ASSERT_TRUE(
        client->WriteRaw("GET " + Target("SELECT * FROM cpu") + " HTTP/1.1\r\nHost: x\r\n\r\n")
            .ok());
    ASSERT_TRUE(client->DiscardBytes(2 << 20).ok());  // the head and the first 2 MB
  }                                                   // closed with the answer under way
  auto [status, rows] = observed_->WaitFinished(1);
  EXPECT_EQ(status.code(), Status::Code::kIOError) << status.ToString();
  EXPECT_LT(rows, kRows) << "the query ran to the end although the client had gone";
}

TEST_F(SqlStreamTest, HeadStopsTheQueryOnceStreaming) {
  auto client = Connect();
  auto head = client->Send("HEAD", Target("SELECT * FROM cpu"));
  ASSERT_TRUE(head.ok()) << head.status().ToString();
  EXPECT_EQ(head->status, 200);
  EXPECT_EQ(head->Header("transfer-encoding"), "chunked");
  EXPECT_EQ(head->body, "");
  auto [status, rows] = observed_->WaitFinished(1);
  EXPECT_EQ(status.code(), Status::Code::kAborted) << status.ToString();
  EXPECT_LT(rows, kRows);
  // An error is found before streaming, so HEAD gets its status.
  auto bad = client->Send("HEAD", Target("SELECT * FROM nope"));
  ASSERT_TRUE(bad.ok()) << bad.status().ToString();
  EXPECT_EQ(bad->status, 400);
}

}  // namespace
}  // namespace gnomon::server::api
