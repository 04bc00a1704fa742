// Offline verbs over a stopped server's data directory (docs/reliability.md):
//   gnomon verify  --data-dir DIR            every file checked; exit 0 clean, 1 damage, 2 not run
//   gnomon repair  --data-dir DIR [--cut-wal] damaged segments set aside under DIR/quarantine/
//   gnomon inspect --data-dir DIR [--segment FILE] [--wal] [--registry TABLE_DIR] [--series N]
#include <cstdio>
#include <memory>
#include <string>

#include "src/port/env.h"
#include "src/storage/data_dir_check.h"
#include "src/storage/data_dir_inspect.h"
#include "src/storage/data_dir_layout.h"
#include "tools/gnomon/commands.h"

namespace gnomon::tools {
namespace {

// The server's own lock: files change under a running server, and repair must not race it.
Result<std::unique_ptr<port::FileLock>> LockDataDir(const std::string& dir) {
  port::Env* env = port::Env::Default();
  if (!env->FileExists(dir)) return Status::NotFound("no data directory at " + dir);
  auto lock = env->LockFile(port::JoinPath(dir, storage::kLockFileName));
  if (!lock.ok()) {
    return Status::IOError("data directory " + dir + " is in use (stop the server first): " + lock.status().message());
  }
  return lock;
}

int Fail(const char* verb, const Status& s) {
  std::fprintf(stderr, "gnomon %s: %s\n", verb, s.ToString().c_str());
  return 2;
}

int RunVerify(const std::string& dir) {
  auto lock = LockDataDir(dir);
  if (!lock.ok()) return Fail("verify", lock.status());
  auto check = storage::CheckDataDir(port::Env::Default(), dir);
  if (!check.ok()) return Fail("verify", check.status());
  std::printf("checked %s: %llu databases, %llu tables, %llu series, %llu segments (%llu bytes), "
              "%llu live WAL records (%llu bytes)\n",
              dir.c_str(), static_cast<unsigned long long>(check->databases),
              static_cast<unsigned long long>(check->tables), static_cast<unsigned long long>(check->series),
              static_cast<unsigned long long>(check->segments), static_cast<unsigned long long>(check->segment_bytes),
              static_cast<unsigned long long>(check->wal_records), static_cast<unsigned long long>(check->wal_bytes));
  for (const std::string& note : check->notes) std::printf("note: %s\n", note.c_str());
  for (const auto& p : check->problems) std::printf("DAMAGED %s: %s\n", p.path.c_str(), p.what.c_str());
  if (check->ok()) {
    std::printf("ok\n");
    return 0;
  }
  std::printf("%zu problems%s\n", check->problems.size(),
              check->damaged_segments.empty() && !check->wal_damaged ? ""
                                                                      : "; gnomon repair sets damaged segments aside"
                                                                        " (and --cut-wal cuts a damaged WAL)");
  return 1;
}

int RunRepair(const std::string& dir, bool cut_wal) {
  auto lock = LockDataDir(dir);
  if (!lock.ok()) return Fail("repair", lock.status());
  storage::RepairOptions options;
  options.cut_wal = cut_wal;
  auto done = storage::RepairDataDir(port::Env::Default(), dir, options);
  if (!done.ok()) return Fail("repair", done.status());
  for (const std::string& line : *done) std::printf("%s\n", line.c_str());
  if (done->empty()) std::printf("nothing to repair\n");
  return 0;
}

struct InspectFlags {
  std::string dir;
  std::string segment;
  std::string registry;
  bool wal = false;
  size_t series = 20;
};

int RunInspect(const InspectFlags& f) {
  port::Env* env = port::Env::Default();
  Result<std::string> text = std::string();
  if (!f.segment.empty()) {
    text = storage::DescribeSegment(env, f.segment);
  } else if (!f.registry.empty()) {
    text = storage::DescribeRegistry(env, f.registry, f.series);
  } else if (f.dir.empty()) {
    return Fail("inspect", Status::InvalidArgument("give --data-dir, --segment FILE or --registry DIR"));
  } else if (f.wal) {
    text = storage::DescribeWal(env, f.dir);
  } else {
    text = storage::DescribeManifest(env, f.dir);
  }
  if (!text.ok()) return Fail("inspect", text.status());
  std::fputs(text->c_str(), stdout);
  return 0;
}

}  // namespace

void RegisterDataDirCommands(CLI::App& app) {
  auto dir = std::make_shared<std::string>();
  auto* verify = app.add_subcommand("verify", "Check every file of a stopped server's data directory");
  verify->add_option("--data-dir", *dir, "Data directory")->required();
  verify->callback([dir] { SetExitCode(RunVerify(*dir)); });

  auto cut_wal = std::make_shared<bool>(false);
  auto* repair = app.add_subcommand(
      "repair", "Set damaged segments aside (DIR/quarantine/) so their time ranges answer again");
  repair->add_option("--data-dir", *dir, "Data directory")->required();
  repair->add_flag("--cut-wal", *cut_wal,
                   "Also cut the WAL at damage in an older segment, dropping every record after it");
  repair->callback([dir, cut_wal] { SetExitCode(RunRepair(*dir, *cut_wal)); });

  auto f = std::make_shared<InspectFlags>();
  auto* inspect = app.add_subcommand("inspect", "Describe a data directory's manifest, WAL, a segment or a registry");
  inspect->add_option("--data-dir", f->dir, "Data directory: its manifest, or with --wal its live WAL");
  inspect->add_flag("--wal", f->wal, "Describe the live WAL instead of the manifest");
  inspect->add_option("--segment", f->segment, "A segment file: index, codecs and bytes per column");
  inspect->add_option("--registry", f->registry, "A table's series directory (TABLE_DIR/series)");
  inspect->add_option("--series", f->series, "Series a registry description lists")->capture_default_str();
  inspect->callback([f] { SetExitCode(RunInspect(*f)); });
}

}  // namespace gnomon::tools
