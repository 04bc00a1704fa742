// A storage engine in a fresh temporary directory for in-process benchmarks (no background
// work), removed with it. Fixture writes that fail abort: a benchmark without its data is void.
#pragma once

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>

#include "src/storage/engine.h"
#include "src/storage/write_batch.h"

namespace gnomon::bench {

class TempEngine {
 public:
  explicit TempEngine(const std::string& name)
      : dir_((std::filesystem::temp_directory_path() / (name + "-" + std::to_string(getpid()))).string()) {
    std::filesystem::remove_all(dir_);
    storage::EngineOptions options;
    options.data_dir = dir_;
    options.background_work = false;
    engine_ = std::move(storage::Engine::Open(options)).value();
  }
  ~TempEngine() {
    engine_.reset();
    std::filesystem::remove_all(dir_);
  }
  TempEngine(const TempEngine&) = delete;
  TempEngine& operator=(const TempEngine&) = delete;

  storage::Engine* get() const { return engine_.get(); }
  void WriteOrDie(const storage::WriteBatch& batch) {
    auto written = engine_->Write(batch, {});
    if (!written.ok()) {
      std::fprintf(stderr, "cannot write the fixture: %s\n", written.status().ToString().c_str());
      std::abort();
    }
  }

 private:
  std::string dir_;
  std::unique_ptr<storage::Engine> engine_;
};

}  // namespace gnomon::bench
