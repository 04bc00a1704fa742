// WriteGate: lets many writers through at once, and lets one maintenance task (freeze, drop)
// wait until no write is in flight and hold new ones back. Unlike std::shared_mutex it never
// starves the exclusive side: once it asks, new writers queue behind it.
#pragma once

#include <condition_variable>
#include <mutex>

namespace gnomon::storage {

class WriteGate {
 public:
  void EnterWriter() {
    std::unique_lock lock(mu_);
    cv_.wait(lock, [&] { return !exclusive_wanted_; });
    ++writers_;
  }
  void ExitWriter() {
    std::lock_guard lock(mu_);
    if (--writers_ == 0) cv_.notify_all();
  }
  void EnterExclusive() {
    std::unique_lock lock(mu_);
    cv_.wait(lock, [&] { return !exclusive_wanted_; });
    exclusive_wanted_ = true;
    cv_.wait(lock, [&] { return writers_ == 0; });
  }
  void ExitExclusive() {
    std::lock_guard lock(mu_);
    exclusive_wanted_ = false;
    cv_.notify_all();
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  int writers_ = 0;
  bool exclusive_wanted_ = false;
};

class WriterSection {
 public:
  explicit WriterSection(WriteGate* gate) : gate_(gate) { gate_->EnterWriter(); }
  ~WriterSection() { gate_->ExitWriter(); }
  WriterSection(const WriterSection&) = delete;
  WriterSection& operator=(const WriterSection&) = delete;

 private:
  WriteGate* gate_;
};

class ExclusiveSection {
 public:
  explicit ExclusiveSection(WriteGate* gate) : gate_(gate) { gate_->EnterExclusive(); }
  ~ExclusiveSection() { gate_->ExitExclusive(); }
  ExclusiveSection(const ExclusiveSection&) = delete;
  ExclusiveSection& operator=(const ExclusiveSection&) = delete;

 private:
  WriteGate* gate_;
};

}  // namespace gnomon::storage
