#include "src/torture/crash_clients.h"

#include <chrono>
#include <thread>

#include "src/bench/http_client.h"

namespace gnomon::torture {
namespace {

std::string Quote(const bench::HttpResponse& r) {
  return "HTTP " + std::to_string(r.status) + ": " + r.body.substr(0, 300);
}

}  // namespace

void CycleTally::Fail(std::string what) {
  std::lock_guard lock(mu);
  failures.push_back(std::move(what));
}

bool RefusedBySimulatedCrash(int status, const std::string& body) {
  return status >= 500 && body.find("simulated crash") != std::string::npos;
}

void RunWriter(const bench::Url& url, int writer, OperationSource* source,
               WriterLedger* ledger, const std::atomic<bool>* stop, CycleTally* tally) {
  bench::HttpClient client(url);
  while (!stop->load()) {
    Operation op = source->Next();
    std::string body, target;
    if (op.kind == Operation::Kind::kWrite) {
      body = ToLineProtocol(op, writer);
      target = "/write?db=" + DatabaseName(op.database) + "&precision=ns";
    } else {
      body = ToDeleteSql(op, writer);
      target = "/v1/sql?db=" + DatabaseName(op.database);
    }
    ledger->Begin(std::move(op));
    bench::HttpRequest request;
    request.target = target;
    request.body = body;
    request.content_type = "text/plain";
    auto response = client.Send(request);
    if (response.ok() && response->ok()) {
      ledger->Acknowledge();
      tally->acknowledged.fetch_add(1);
      continue;
    }
    // No answer, or a refusal: the outcome is checked after the restart (all or nothing).
    ledger->Unanswered();
    tally->unanswered.fetch_add(1);
    if (response.ok() && !RefusedBySimulatedCrash(response->status, response->body)) {
      tally->Fail("writer " + std::to_string(writer) + ": " + target + ": " + Quote(*response));
    }
    tally->server_gone = true;
    return;
  }
}

void RunQueries(const bench::Url& url, uint64_t seed, const std::atomic<bool>* stop, CycleTally* tally) {
  static const char* const kQueries[] = {
      "SELECT host, count(*), max(v), min(n) FROM {t} GROUP BY host",
      "SELECT count(*), sum(n) FROM {t} WHERE time >= '{from}'",
      "SELECT host, time, v, s FROM {t} ORDER BY time DESC LIMIT 5",
      "SELECT date_trunc('hour', time) AS hour, max(v) FROM {t} GROUP BY hour ORDER BY hour",
  };
  std::mt19937_64 rng(seed);
  bench::HttpClient client(url);
  while (!stop->load()) {
    const uint32_t table = static_cast<uint32_t>(rng() % kTables);
    std::string sql = kQueries[rng() % std::size(kQueries)];
    sql.replace(sql.find("{t}"), 3, TableName(table));
    if (size_t at = sql.find("{from}"); at != std::string::npos) sql.replace(at, 6, "2000-01-01T00:00:00Z");
    bench::HttpRequest request;
    const std::string target = "/v1/sql?db=" + DatabaseName(DatabaseOf(table));
    request.target = target;
    request.body = sql;
    request.content_type = "text/plain";
    auto response = client.Send(request);
    if (!response.ok()) return;  // the server went away
    if (!response->ok() && !RefusedBySimulatedCrash(response->status, response->body)) {
      tally->Fail("query " + sql + ": " + Quote(*response));
      return;
    }
    tally->queries.fetch_add(1);
  }
}

void RunMaintenance(const bench::Url& url, uint64_t seed, const std::atomic<bool>* stop, CycleTally* tally) {
  std::mt19937_64 rng(seed);
  bench::HttpClient client(url);
  while (!stop->load()) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50 + rng() % 350));
    if (stop->load()) return;
    bench::HttpRequest request;
    const uint64_t pick = rng() % 6;
    request.target = pick < 2 ? "/v1/admin/compact" : pick < 3 ? "/v1/admin/retention" : "/v1/admin/flush";
    auto response = client.Send(request);
    if (!response.ok()) return;
    if (!response->ok() && !RefusedBySimulatedCrash(response->status, response->body)) {
      tally->Fail(std::string(request.target) + ": " + Quote(*response));
      return;
    }
    tally->maintenance.fetch_add(1);
  }
}

}  // namespace gnomon::torture
