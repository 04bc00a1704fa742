// MemEnv: an Env that keeps every file and directory in memory, for fast hermetic tests.
// Behaves like POSIX where callers can tell: files need their parent directory to exist, a
// RandomAccessFile sees the file as it was when opened (like a mapping of an immutable file),
// and bytes written are visible to readers at once (there is no page cache to lose; wrap it in
// a FaultInjectionEnv to simulate losing unsynced data). Thread-safe.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>

#include "src/port/env.h"

namespace gnomon::port {

class MemEnv final : public Env {
 public:
  MemEnv();
  ~MemEnv() override;

  Result<std::unique_ptr<WritableFile>> NewWritableFile(const std::string& path) override;
  Result<std::unique_ptr<WritableFile>> NewAppendableFile(const std::string& path) override;
  Result<std::unique_ptr<SequentialFile>> NewSequentialFile(const std::string& path) override;
  Result<std::unique_ptr<RandomAccessFile>> NewRandomAccessFile(const std::string& path) override;

  bool FileExists(const std::string& path) override;
  Result<std::vector<std::string>> GetChildren(const std::string& dir) override;
  Result<uint64_t> GetFileSize(const std::string& path) override;
  Status RemoveFile(const std::string& path) override;
  Status RemoveDirRecursive(const std::string& dir) override;
  Status CreateDirs(const std::string& dir) override;
  Status RenameFile(const std::string& from, const std::string& to) override;
  Status TruncateFile(const std::string& path, uint64_t size) override;
  Status SyncDir(const std::string& dir) override;

  // Shared by open handles; a removed or replaced file lives on for handles that still hold it
  // (POSIX unlink semantics).
  struct FileNode {
    mutable std::mutex mu;
    std::string data;
  };

 private:
  Result<std::shared_ptr<FileNode>> CreateFile(const std::string& path, bool truncate);
  std::shared_ptr<FileNode> FindFile(const std::string& path) const;  // REQUIRES: mu_ held
  bool ParentExists(const std::string& path) const;                   // REQUIRES: mu_ held

  mutable std::mutex mu_;
  std::map<std::string, std::shared_ptr<FileNode>> files_;  // normalised path -> contents
  std::set<std::string> dirs_;                              // normalised paths
};

// "a//b/" -> "a/b"; "" -> ".". Exposed for tests and for FaultInjectionEnv's bookkeeping.
std::string NormalizePath(std::string_view path);

}  // namespace gnomon::port
