#include "src/port/mem_env.h"

#include <algorithm>
#include <cstring>

namespace gnomon::port {

std::string NormalizePath(std::string_view path) {
  std::string out;
  out.reserve(path.size());
  for (char c : path) {
    if (c == '/' && !out.empty() && out.back() == '/') continue;
    out.push_back(c);
  }
  while (out.size() > 1 && out.back() == '/') out.pop_back();
  if (out.empty()) return ".";
  std::string_view v = out;
  while (v.size() > 2 && v.starts_with("./")) v.remove_prefix(2);
  return v.size() == out.size() ? out : std::string(v);
}

namespace {

using FileNode = MemEnv::FileNode;

class MemWritableFile final : public WritableFile {
 public:
  MemWritableFile(std::string path, std::shared_ptr<FileNode> node)
      : path_(std::move(path)), node_(std::move(node)) {
    std::lock_guard<std::mutex> lock(node_->mu);
    size_ = node_->data.size();
  }

  Status Append(std::string_view data) override {
    if (closed_) return Status::IOError("append to closed file " + path_);
    std::lock_guard<std::mutex> lock(node_->mu);
    node_->data.append(data);
    size_ += data.size();
    return Status::OK();
  }
  Status Flush() override {
    return closed_ ? Status::IOError("flush closed " + path_) : Status::OK();
  }
  Status Sync() override {
    return closed_ ? Status::IOError("sync closed " + path_) : Status::OK();
  }
  Status Close() override {
    closed_ = true;
    return Status::OK();
  }
  uint64_t Size() const override { return size_; }

 private:
  std::string path_;
  std::shared_ptr<FileNode> node_;
  uint64_t size_ = 0;
  bool closed_ = false;
};

class MemSequentialFile final : public SequentialFile {
 public:
  explicit MemSequentialFile(std::shared_ptr<FileNode> node) : node_(std::move(node)) {}

  Status Read(size_t n, std::string_view* result, char* scratch) override {
    std::lock_guard<std::mutex> lock(node_->mu);
    const std::string& data = node_->data;
    size_t avail = pos_ < data.size() ? data.size() - pos_ : 0;
    size_t got = std::min(n, avail);
    if (got > 0) std::memcpy(scratch, data.data() + pos_, got);
    pos_ += got;
    *result = std::string_view(scratch, got);
    return Status::OK();
  }

  Status Skip(uint64_t n) override {
    pos_ += n;
    return Status::OK();
  }

 private:
  std::shared_ptr<FileNode> node_;
  uint64_t pos_ = 0;
};

// Holds a snapshot of the file taken at open, like a read-only mapping of an immutable file.
class MemRandomAccessFile final : public RandomAccessFile {
 public:
  MemRandomAccessFile(std::string path, std::string contents)
      : path_(std::move(path)), contents_(std::move(contents)) {}

  Status Read(uint64_t offset, size_t n, std::string_view* result, char* scratch) const override {
    if (offset > contents_.size() || n > contents_.size() - offset) {
      return Status::Corruption("read past end of " + path_ + " at offset " +
                                std::to_string(offset) + " length " + std::to_string(n));
    }
    *result = std::string_view(contents_).substr(offset, n);
    return Status::OK();
  }
  uint64_t Size() const override { return contents_.size(); }
  std::string_view Contents() const override { return contents_; }

 private:
  std::string path_;
  std::string contents_;
};

bool IsBelow(const std::string& path, const std::string& dir) {
  if (dir == "/") return path.size() > 1 && path[0] == '/';
  return path.size() > dir.size() && path.compare(0, dir.size(), dir) == 0 &&
         path[dir.size()] == '/';
}

}  // namespace

MemEnv::MemEnv() {
  dirs_.insert(".");
  dirs_.insert("/");
}

MemEnv::~MemEnv() = default;

std::shared_ptr<FileNode> MemEnv::FindFile(const std::string& path) const {
  auto it = files_.find(path);
  return it == files_.end() ? nullptr : it->second;
}

bool MemEnv::ParentExists(const std::string& path) const {
  return dirs_.count(NormalizePath(DirName(path))) > 0;
}

Result<std::shared_ptr<FileNode>> MemEnv::CreateFile(const std::string& raw_path, bool truncate) {
  std::string path = NormalizePath(raw_path);
  std::lock_guard<std::mutex> lock(mu_);
  if (dirs_.count(path)) return Status::IOError("open " + path + ": Is a directory");
  if (!ParentExists(path)) return Status::IOError("open " + path + ": No such file or directory");
  auto node = FindFile(path);
  if (node == nullptr) {
    node = std::make_shared<FileNode>();
    files_[path] = node;
  } else if (truncate) {
    // POSIX O_TRUNC: the same inode, emptied; other open handles see it.
    std::lock_guard<std::mutex> node_lock(node->mu);
    node->data.clear();
  }
  return node;
}

Result<std::unique_ptr<WritableFile>> MemEnv::NewWritableFile(const std::string& path) {
  GNOMON_ASSIGN_OR_RETURN(auto node, CreateFile(path, /*truncate=*/true));
  return std::unique_ptr<WritableFile>(new MemWritableFile(NormalizePath(path), std::move(node)));
}

Result<std::unique_ptr<WritableFile>> MemEnv::NewAppendableFile(const std::string& path) {
  GNOMON_ASSIGN_OR_RETURN(auto node, CreateFile(path, /*truncate=*/false));
  return std::unique_ptr<WritableFile>(new MemWritableFile(NormalizePath(path), std::move(node)));
}

Result<std::unique_ptr<SequentialFile>> MemEnv::NewSequentialFile(const std::string& raw_path) {
  std::string path = NormalizePath(raw_path);
  std::lock_guard<std::mutex> lock(mu_);
  auto node = FindFile(path);
  if (node == nullptr) return Status::NotFound("open " + path + ": no such file");
  return std::unique_ptr<SequentialFile>(new MemSequentialFile(std::move(node)));
}

Result<std::unique_ptr<RandomAccessFile>> MemEnv::NewRandomAccessFile(const std::string& raw_path) {
  std::string path = NormalizePath(raw_path);
  std::shared_ptr<FileNode> node;
  {
    std::lock_guard<std::mutex> lock(mu_);
    node = FindFile(path);
  }
  if (node == nullptr) return Status::NotFound("open " + path + ": no such file");
  std::string snapshot;
  {
    std::lock_guard<std::mutex> node_lock(node->mu);
    snapshot = node->data;
  }
  return std::unique_ptr<RandomAccessFile>(new MemRandomAccessFile(path, std::move(snapshot)));
}

bool MemEnv::FileExists(const std::string& raw_path) {
  std::string path = NormalizePath(raw_path);
  std::lock_guard<std::mutex> lock(mu_);
  return files_.count(path) > 0 || dirs_.count(path) > 0;
}

Result<std::vector<std::string>> MemEnv::GetChildren(const std::string& raw_dir) {
  std::string dir = NormalizePath(raw_dir);
  std::lock_guard<std::mutex> lock(mu_);
  if (!dirs_.count(dir)) return Status::NotFound("opendir " + dir + ": no such directory");
  std::vector<std::string> names;
  auto add_if_child = [&](const std::string& path) {
    if (path == dir || NormalizePath(DirName(path)) != dir) return;
    size_t slash = path.rfind('/');
    names.push_back(slash == std::string::npos ? path : path.substr(slash + 1));
  };
  for (const auto& [path, node] : files_) add_if_child(path);
  for (const auto& path : dirs_) add_if_child(path);
  std::sort(names.begin(), names.end());
  return names;
}

Result<uint64_t> MemEnv::GetFileSize(const std::string& raw_path) {
  std::string path = NormalizePath(raw_path);
  std::lock_guard<std::mutex> lock(mu_);
  auto node = FindFile(path);
  if (node == nullptr) return Status::NotFound("stat " + path + ": no such file");
  std::lock_guard<std::mutex> node_lock(node->mu);
  return static_cast<uint64_t>(node->data.size());
}

Status MemEnv::RemoveFile(const std::string& raw_path) {
  std::string path = NormalizePath(raw_path);
  std::lock_guard<std::mutex> lock(mu_);
  if (files_.erase(path) == 0) return Status::NotFound("unlink " + path + ": no such file");
  return Status::OK();
}

Status MemEnv::RemoveDirRecursive(const std::string& raw_dir) {
  std::string dir = NormalizePath(raw_dir);
  std::lock_guard<std::mutex> lock(mu_);
  std::erase_if(files_, [&](const auto& kv) { return kv.first == dir || IsBelow(kv.first, dir); });
  std::erase_if(dirs_, [&](const std::string& d) {
    return (d == dir || IsBelow(d, dir)) && d != "." && d != "/";
  });
  return Status::OK();
}

Status MemEnv::CreateDirs(const std::string& raw_dir) {
  std::string dir = NormalizePath(raw_dir);
  std::lock_guard<std::mutex> lock(mu_);
  // Create from the top down so every parent exists.
  std::vector<std::string> chain;
  for (std::string d = dir; !dirs_.count(d); d = NormalizePath(DirName(d))) chain.push_back(d);
  for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
    if (files_.count(*it)) return Status::IOError("mkdir " + *it + ": File exists");
    dirs_.insert(*it);
  }
  return Status::OK();
}

Status MemEnv::RenameFile(const std::string& raw_from, const std::string& raw_to) {
  std::string from = NormalizePath(raw_from);
  std::string to = NormalizePath(raw_to);
  std::lock_guard<std::mutex> lock(mu_);
  auto node = FindFile(from);
  if (node == nullptr) {
    return Status::NotFound("rename " + from + " -> " + to + ": no such file");
  }
  if (dirs_.count(to)) return Status::IOError("rename " + from + " -> " + to + ": Is a directory");
  if (!ParentExists(to)) {
    return Status::IOError("rename " + from + " -> " + to + ": No such file or directory");
  }
  files_.erase(from);
  files_[to] = std::move(node);
  return Status::OK();
}

Status MemEnv::TruncateFile(const std::string& raw_path, uint64_t size) {
  std::string path = NormalizePath(raw_path);
  std::lock_guard<std::mutex> lock(mu_);
  auto node = FindFile(path);
  if (node == nullptr) return Status::NotFound("truncate " + path + ": no such file");
  std::lock_guard<std::mutex> node_lock(node->mu);
  node->data.resize(size, '\0');  // growing zero-fills, as truncate(2) does
  return Status::OK();
}

Status MemEnv::SyncDir(const std::string& raw_dir) {
  std::string dir = NormalizePath(raw_dir);
  std::lock_guard<std::mutex> lock(mu_);
  if (!dirs_.count(dir)) return Status::IOError("open dir " + dir + ": No such file or directory");
  return Status::OK();
}

}  // namespace gnomon::port
