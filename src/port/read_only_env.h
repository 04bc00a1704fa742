// ReadOnlyEnv: wraps another Env for tools that must look at a data directory without changing
// it (gnomon verify). Reads pass through. Mutations are not applied: each is recorded as one line
// ("truncate PATH to N", "remove PATH", ...) and reported as done, so that code which would repair
// what it opens (a registry cutting a torn log tail) runs to the end and the caller can say what
// it would have changed. Files opened for writing accept and drop their bytes. Thread-safe.
#pragma once

#include <mutex>
#include <string>
#include <vector>

#include "src/port/env.h"

namespace gnomon::port {

class ReadOnlyEnv final : public Env {
 public:
  // `base` is not owned and must outlive this env.
  explicit ReadOnlyEnv(Env* base) : base_(base) {}

  Result<std::unique_ptr<WritableFile>> NewWritableFile(const std::string& path) override;
  Result<std::unique_ptr<WritableFile>> NewAppendableFile(const std::string& path) override;
  Result<std::unique_ptr<SequentialFile>> NewSequentialFile(const std::string& path) override {
    return base_->NewSequentialFile(path);
  }
  Result<std::unique_ptr<RandomAccessFile>> NewRandomAccessFile(const std::string& path) override {
    return base_->NewRandomAccessFile(path);
  }
  bool FileExists(const std::string& path) override { return base_->FileExists(path); }
  Result<std::vector<std::string>> GetChildren(const std::string& dir) override {
    return base_->GetChildren(dir);
  }
  Result<uint64_t> GetFileSize(const std::string& path) override { return base_->GetFileSize(path); }
  Status RemoveFile(const std::string& path) override { return Record("remove " + path); }
  Status RemoveDirRecursive(const std::string& dir) override { return Record("remove directory " + dir); }
  Status CreateDirs(const std::string& dir) override;
  Status RenameFile(const std::string& from, const std::string& to) override {
    return Record("rename " + from + " to " + to);
  }
  Status TruncateFile(const std::string& path, uint64_t size) override {
    return Record("truncate " + path + " to " + std::to_string(size) + " bytes");
  }
  Status SyncDir(const std::string&) override { return Status::OK(); }

  // What would have changed, in call order (appends are summed per opened file).
  std::vector<std::string> Changes() const;

 private:
  friend class DroppingWritableFile;
  Status Record(std::string change);

  Env* const base_;
  mutable std::mutex mu_;
  std::vector<std::string> changes_;
};

}  // namespace gnomon::port
