// Many kept-alive HTTP/1.1 connections driven by a few event loops, for the query runner's
// workers: a closed loop per connection, as TSBS's goroutines are, without a thread per worker.
// With 100 workers on two cores, a thread each cost the client as much CPU per query as the
// server spent answering it (two wake-ups per query); a loop serves whichever answers are ready.
// Built on Boost.Asio/Beast; they stay out of this header.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "src/base/status.h"
#include "src/bench/http_client.h"
#include "src/bench/url.h"

namespace gnomon::bench {

// One event loop: its connections' handlers all run on the thread that calls Run().
class EventLoop {
 public:
  EventLoop();
  ~EventLoop();
  EventLoop(const EventLoop&) = delete;
  EventLoop& operator=(const EventLoop&) = delete;

  // Runs handlers until no connection has anything in flight.
  void Run();

 private:
  friend class AsyncHttpClient;
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// One connection on a loop. Not thread-safe: use it from its loop's handlers (or before Run()).
// As HttpClient: opened on the first request and reused; a reused connection found closed before
// any byte of the answer arrived is reopened once and the request sent again.
class AsyncHttpClient {
 public:
  // Called on the loop's thread with the exchange's outcome; `response` is valid during the call.
  using Done = std::function<void(Status status, HttpResponse* response)>;

  AsyncHttpClient(EventLoop* loop, Url url);
  ~AsyncHttpClient();
  AsyncHttpClient(const AsyncHttpClient&) = delete;
  AsyncHttpClient& operator=(const AsyncHttpClient&) = delete;

  // Starts the exchange; `request`'s views must stay valid until `done` is called. One exchange at
  // a time per connection.
  void Send(const HttpRequest& request, Done done);

  // As HttpClient::Recycle: the next answer is read into this buffer.
  void Recycle(std::string body) { spare_body_ = std::move(body); }

  uint64_t connects() const { return connects_; }

 private:
  struct Impl;
  friend struct Impl;
  std::unique_ptr<Impl> impl_;
  uint64_t connects_ = 0;
  std::string spare_body_;
};

}  // namespace gnomon::bench
