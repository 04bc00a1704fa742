#include "src/base/task_pool.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

namespace gnomon {
namespace {

TEST(TaskPoolTest, RunsEverySlotOnce) {
  TaskPool pool(3);
  for (int width : {0, 1, 2, 3, 4, 17}) {
    std::vector<std::atomic<int>> runs(static_cast<size_t>(width));
    pool.ParallelFor(width, [&](int slot) { ++runs[static_cast<size_t>(slot)]; });
    for (int s = 0; s < width; ++s) EXPECT_EQ(runs[static_cast<size_t>(s)].load(), 1) << width << " " << s;
  }
}

TEST(TaskPoolTest, WithoutThreadsTheCallerRunsEverything) {
  TaskPool pool(0);
  const std::thread::id me = std::this_thread::get_id();
  int runs = 0;
  pool.ParallelFor(5, [&](int) {
    EXPECT_EQ(std::this_thread::get_id(), me);
    ++runs;
  });
  EXPECT_EQ(runs, 5);
}

TEST(TaskPoolTest, HelpersJoinWhenFree) {
  TaskPool pool(1);
  // Slot work waits for the other slot to start: it can only finish if a helper runs one.
  std::atomic<int> started{0};
  std::atomic<bool> together{false};
  pool.ParallelFor(2, [&](int) {
    ++started;
    auto until = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    while (started.load() < 2 && std::chrono::steady_clock::now() < until) std::this_thread::yield();
    if (started.load() == 2) together = true;
  });
  EXPECT_TRUE(together.load());
}

TEST(TaskPoolTest, ABusyPoolLeavesTheWorkToTheCaller) {
  TaskPool pool(1);
  std::atomic<bool> release{false};
  std::atomic<int> blocked{0};
  // Another caller's two slots hold its own thread and the only helper until released.
  std::thread other([&] {
    pool.ParallelFor(2, [&](int) {
      ++blocked;
      while (!release.load()) std::this_thread::yield();
    });
  });
  while (blocked.load() < 2) std::this_thread::yield();
  int runs = 0;
  pool.ParallelFor(4, [&](int) { ++runs; });  // must not wait for the busy helper
  EXPECT_EQ(runs, 4);
  release = true;
  other.join();
}

TEST(TaskPoolTest, ManyCallersAtOnce) {
  TaskPool pool(2);
  std::atomic<long> total{0};
  std::vector<std::thread> callers;
  for (int c = 0; c < 4; ++c) {
    callers.emplace_back([&] {
      for (int i = 0; i < 2000; ++i) pool.ParallelFor(3, [&](int slot) { total += slot + 1; });
    });
  }
  for (std::thread& t : callers) t.join();
  EXPECT_EQ(total.load(), 4L * 2000 * (1 + 2 + 3));
}

}  // namespace
}  // namespace gnomon
