// POSIX implementation of Env: buffered appends, fdatasync, mmap for random reads.
#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "src/port/env.h"

namespace gnomon::port {
namespace {

constexpr size_t kWriteBufferSize = 64 * 1024;

Status WriteAll(int fd, const char* p, size_t n, const std::string& path) {
  while (n > 0) {
    ssize_t w = ::write(fd, p, n);
    if (w < 0) {
      if (errno == EINTR) continue;
      return Status::FromErrno("write " + path, errno);
    }
    p += w;
    n -= static_cast<size_t>(w);
  }
  return Status::OK();
}

class PosixWritableFile final : public WritableFile {
 public:
  PosixWritableFile(std::string path, int fd, uint64_t size)
      : path_(std::move(path)), fd_(fd), size_(size), writeback_from_(size) {
    buffer_.reserve(kWriteBufferSize);
  }
  ~PosixWritableFile() override {
    if (fd_ >= 0) (void)Close();
  }

  Status Append(std::string_view data) override {
    size_ += data.size();
    if (buffer_.size() + data.size() <= kWriteBufferSize) {
      buffer_.append(data);
      return Status::OK();
    }
    GNOMON_RETURN_IF_ERROR(Flush());
    if (data.size() <= kWriteBufferSize) {
      buffer_.append(data);
      return Status::OK();
    }
    GNOMON_RETURN_IF_ERROR(WriteAll(fd_, data.data(), data.size(), path_));
    StartWriteback();
    return Status::OK();
  }

  Status Flush() override {
    if (buffer_.empty()) return Status::OK();
    Status s = WriteAll(fd_, buffer_.data(), buffer_.size(), path_);
    buffer_.clear();
    if (s.ok()) StartWriteback();
    return s;
  }

  Status Sync() override {
    GNOMON_RETURN_IF_ERROR(Flush());
    if (::fdatasync(fd_) != 0) return Status::FromErrno("fdatasync " + path_, errno);
    return Status::OK();
  }

  Status Close() override {
    if (fd_ < 0) return Status::OK();
    Status s = Flush();
    if (::close(fd_) != 0 && s.ok()) s = Status::FromErrno("close " + path_, errno);
    fd_ = -1;
    return s;
  }

  uint64_t Size() const override { return size_; }

 private:
  // Starts the kernel writing out each further MiB handed to it, without waiting (RocksDB's
  // bytes_per_sync). Without it a flush or compaction leaves hundreds of MB dirty for its final
  // fdatasync, which floods the disk at once and holds the WAL's group-commit fsync behind it for
  // over a second (measured by gnomon torture load's slow-write log). Durability still comes
  // from Sync alone.
  void StartWriteback() {
    const uint64_t written = size_ - buffer_.size();
    if (written - writeback_from_ < kWritebackBytes) return;
    (void)::sync_file_range(fd_, static_cast<off_t>(writeback_from_), static_cast<off_t>(written - writeback_from_),
                            SYNC_FILE_RANGE_WRITE);
    writeback_from_ = written;
  }

  static constexpr uint64_t kWritebackBytes = 1 << 20;
  std::string path_;
  int fd_;
  uint64_t size_;
  uint64_t writeback_from_;  // bytes before it have been handed to writeback
  std::string buffer_;
};

class PosixSequentialFile final : public SequentialFile {
 public:
  PosixSequentialFile(std::string path, int fd) : path_(std::move(path)), fd_(fd) {}
  ~PosixSequentialFile() override { ::close(fd_); }

  Status Read(size_t n, std::string_view* result, char* scratch) override {
    size_t got = 0;
    while (got < n) {
      ssize_t r = ::read(fd_, scratch + got, n - got);
      if (r < 0) {
        if (errno == EINTR) continue;
        return Status::FromErrno("read " + path_, errno);
      }
      if (r == 0) break;
      got += static_cast<size_t>(r);
    }
    *result = std::string_view(scratch, got);
    return Status::OK();
  }

  Status Skip(uint64_t n) override {
    if (::lseek(fd_, static_cast<off_t>(n), SEEK_CUR) < 0) {
      return Status::FromErrno("lseek " + path_, errno);
    }
    return Status::OK();
  }

 private:
  std::string path_;
  int fd_;
};

// Read-only mapping of a whole immutable file (segments are never modified once written).
class PosixMappedFile final : public RandomAccessFile {
 public:
  PosixMappedFile(std::string path, const char* base, uint64_t size)
      : path_(std::move(path)), base_(base), size_(size) {}
  ~PosixMappedFile() override {
    if (size_ > 0) ::munmap(const_cast<char*>(base_), size_);
  }

  Status Read(uint64_t offset, size_t n, std::string_view* result, char* scratch) const override {
    if (offset > size_ || n > size_ - offset) {
      return Status::Corruption("read past end of " + path_ + " at offset " +
                                std::to_string(offset) + " length " + std::to_string(n));
    }
    *result = std::string_view(base_ + offset, n);
    return Status::OK();
  }
  uint64_t Size() const override { return size_; }
  std::string_view Contents() const override { return {base_, size_}; }
  void ReleaseResidentPages() const override {
    // A read-only file mapping: MADV_DONTNEED only unmaps the pages from this process.
    if (size_ > 0) ::madvise(const_cast<char*>(base_), size_, MADV_DONTNEED);
  }

 private:
  std::string path_;
  const char* base_;
  uint64_t size_;
};

// flock(2) on an open descriptor: exclusive per open file description, so a second open of the
// same file (in this process or another) cannot take it; the kernel drops it if the process dies.
class PosixFileLock final : public FileLock {
 public:
  explicit PosixFileLock(int fd) : fd_(fd) {}
  ~PosixFileLock() override {
    ::flock(fd_, LOCK_UN);
    ::close(fd_);
  }

 private:
  int fd_;
};

class PosixEnv final : public Env {
 public:
  Result<std::unique_ptr<FileLock>> LockFile(const std::string& path) override {
    int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) return Status::FromErrno("open " + path, errno);
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
      const int err = errno;
      ::close(fd);
      if (err == EWOULDBLOCK) return Status::IOError(path + " is locked: another process holds it");
      return Status::FromErrno("flock " + path, err);
    }
    return std::unique_ptr<FileLock>(new PosixFileLock(fd));
  }

  Result<std::unique_ptr<WritableFile>> NewWritableFile(const std::string& path) override {
    int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) return Status::FromErrno("open " + path, errno);
    return std::unique_ptr<WritableFile>(new PosixWritableFile(path, fd, 0));
  }

  Result<std::unique_ptr<WritableFile>> NewAppendableFile(const std::string& path) override {
    int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (fd < 0) return Status::FromErrno("open " + path, errno);
    struct stat st;
    if (::fstat(fd, &st) != 0) {
      int err = errno;
      ::close(fd);
      return Status::FromErrno("fstat " + path, err);
    }
    return std::unique_ptr<WritableFile>(
        new PosixWritableFile(path, fd, static_cast<uint64_t>(st.st_size)));
  }

  Result<std::unique_ptr<SequentialFile>> NewSequentialFile(const std::string& path) override {
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
      if (errno == ENOENT) return Status::NotFound("open " + path + ": no such file");
      return Status::FromErrno("open " + path, errno);
    }
    return std::unique_ptr<SequentialFile>(new PosixSequentialFile(path, fd));
  }

  Result<std::unique_ptr<RandomAccessFile>> NewRandomAccessFile(const std::string& path) override {
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
      if (errno == ENOENT) return Status::NotFound("open " + path + ": no such file");
      return Status::FromErrno("open " + path, errno);
    }
    struct stat st;
    if (::fstat(fd, &st) != 0) {
      int err = errno;
      ::close(fd);
      return Status::FromErrno("fstat " + path, err);
    }
    auto size = static_cast<uint64_t>(st.st_size);
    const char* base = nullptr;
    if (size > 0) {
      void* m = ::mmap(nullptr, size, PROT_READ, MAP_SHARED, fd, 0);
      if (m == MAP_FAILED) {
        int err = errno;
        ::close(fd);
        return Status::FromErrno("mmap " + path, err);
      }
      base = static_cast<const char*>(m);
    }
    ::close(fd);  // the mapping keeps the file alive
    return std::unique_ptr<RandomAccessFile>(new PosixMappedFile(path, base, size));
  }

  bool FileExists(const std::string& path) override { return ::access(path.c_str(), F_OK) == 0; }

  Result<std::vector<std::string>> GetChildren(const std::string& dir) override {
    DIR* d = ::opendir(dir.c_str());
    if (d == nullptr) {
      if (errno == ENOENT) return Status::NotFound("opendir " + dir + ": no such directory");
      return Status::FromErrno("opendir " + dir, errno);
    }
    std::vector<std::string> names;
    while (struct dirent* e = ::readdir(d)) {
      std::string_view name(e->d_name);
      if (name == "." || name == "..") continue;
      names.emplace_back(name);
    }
    ::closedir(d);
    return names;
  }

  Result<uint64_t> GetFileSize(const std::string& path) override {
    struct stat st;
    if (::stat(path.c_str(), &st) != 0) return Status::FromErrno("stat " + path, errno);
    return static_cast<uint64_t>(st.st_size);
  }

  Status RemoveFile(const std::string& path) override {
    if (::unlink(path.c_str()) != 0) return Status::FromErrno("unlink " + path, errno);
    return Status::OK();
  }

  Status RemoveDirRecursive(const std::string& dir) override {
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
    if (ec) return Status::IOError("remove " + dir + ": " + ec.message());
    return Status::OK();
  }

  Status CreateDirs(const std::string& dir) override {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) return Status::IOError("mkdir " + dir + ": " + ec.message());
    return Status::OK();
  }

  Status RenameFile(const std::string& from, const std::string& to) override {
    if (::rename(from.c_str(), to.c_str()) != 0) {
      return Status::FromErrno("rename " + from + " -> " + to, errno);
    }
    return Status::OK();
  }

  Status TruncateFile(const std::string& path, uint64_t size) override {
    if (::truncate(path.c_str(), static_cast<off_t>(size)) != 0) {
      return Status::FromErrno("truncate " + path, errno);
    }
    return Status::OK();
  }

  Status SyncDir(const std::string& dir) override {
    int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return Status::FromErrno("open dir " + dir, errno);
    Status s;
    if (::fsync(fd) != 0) s = Status::FromErrno("fsync dir " + dir, errno);
    ::close(fd);
    return s;
  }
};

}  // namespace

Env* Env::Default() {
  static PosixEnv* env = new PosixEnv();
  return env;
}

}  // namespace gnomon::port
