#include "src/port/env.h"

#include "src/base/fault_point.h"

namespace gnomon::port {

std::string JoinPath(std::string_view dir, std::string_view name) {
  std::string out(dir);
  if (!out.empty() && out.back() != '/') out.push_back('/');
  out.append(name);
  return out;
}

std::string DirName(std::string_view path) {
  size_t slash = path.rfind('/');
  if (slash == std::string_view::npos) return ".";
  if (slash == 0) return "/";
  return std::string(path.substr(0, slash));
}

Result<std::string> ReadFileToString(Env* env, const std::string& path) {
  GNOMON_ASSIGN_OR_RETURN(auto file, env->NewSequentialFile(path));
  std::string out;
  std::string scratch(1 << 16, '\0');
  while (true) {
    std::string_view chunk;
    GNOMON_RETURN_IF_ERROR(file->Read(scratch.size(), &chunk, scratch.data()));
    if (chunk.empty()) break;
    out.append(chunk);
  }
  return out;
}

Status WriteFileAtomic(Env* env, const std::string& path, std::string_view data,
                       std::string_view fault_name) {
  std::string tmp = path + ".tmp";
  {
    GNOMON_ASSIGN_OR_RETURN(auto file, env->NewWritableFile(tmp));
    GNOMON_RETURN_IF_ERROR(file->Append(data));
    GNOMON_RETURN_IF_ERROR(file->Sync());
    GNOMON_RETURN_IF_ERROR(file->Close());
  }
  if (!fault_name.empty()) GNOMON_FAULT_POINT(std::string(fault_name) + ".before_rename");
  GNOMON_RETURN_IF_ERROR(env->RenameFile(tmp, path));
  if (!fault_name.empty()) GNOMON_FAULT_POINT(std::string(fault_name) + ".before_dir_sync");
  return env->SyncDir(DirName(path));
}

}  // namespace gnomon::port
