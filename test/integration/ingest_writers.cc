#include "test/integration/ingest_writers.h"

#include "src/server/http/http_test_client.h"

namespace gnomon::test {

IngestWriters::IngestWriters(uint16_t port, std::string target, TsbsCpuSource* source,
                             IngestLedger* ledger, int workers)
    : port_(port), target_(std::move(target)), source_(source), ledger_(ledger) {
  running_ = workers;
  for (int w = 0; w < workers; ++w) threads_.emplace_back([this] { Work(); });
}

IngestWriters::~IngestWriters() {
  RequestStop();
  Join();
}

void IngestWriters::Join() {
  for (auto& t : threads_) {
    if (t.joinable()) t.join();
  }
}

std::vector<std::string> IngestWriters::errors() {
  std::lock_guard lock(mu_);
  return errors_;
}

void IngestWriters::Error(std::string text) {
  std::lock_guard lock(mu_);
  errors_.push_back(std::move(text));
}

void IngestWriters::Work() {
  auto client = server::http::TestHttpClient::Connect("127.0.0.1", port_);
  if (!client.ok()) {
    transport_errors_.fetch_add(1);
  } else {
    while (!stop_.load()) {
      auto batch = source_->Next();
      if (!batch.ok()) {
        Error(batch.status().ToString());
        break;
      }
      if (!batch->has_value()) break;
      const TsbsBatch& b = **batch;
      ledger_->Add(b);
      ledger_->SetFate(b.index, BatchFate::kUnknown);
      auto reply = (*client)->Send("POST", target_, b.body, {{"Content-Type", "text/plain"}});
      if (!reply.ok()) {
        transport_errors_.fetch_add(1);
        break;
      }
      if (reply->status != 204) {
        Error("batch " + std::to_string(b.index) + ": HTTP " + std::to_string(reply->status) + ": " +
              reply->body.substr(0, 300));
        break;
      }
      ledger_->SetFate(b.index, BatchFate::kAcked);
      if (!reply->keep_alive) break;  // the server is shutting down
    }
  }
  running_.fetch_sub(1);
}

}  // namespace gnomon::test
