#include "src/bench/devops_measurements.h"

#include <cstdio>
#include <string>
#include <string_view>

#include "src/bench/cpu_only.h"
#include "src/bench/devops_host.h"
#include "src/bench/distributions.h"

namespace gnomon::bench {
namespace {

using NormalWalk = Walk<NormalStep>;

constexpr double kOneTerabyte = 1099511627776.0;  // 2^40
constexpr double kSixteenGiB = 17179869184.0;

NormalWalk Mwd(double mean) { return MonotonicWalk(NormalStep{mean, 1.0}, 0.0); }
NormalWalk Cwd(double mean, double max, double start = 0) {
  return ClampedWalk(NormalStep{mean, 1.0}, 0.0, max, start);
}
NormalWalk Wd(double mean) { return PlainWalk(NormalStep{mean, 1.0}, 0.0); }

struct WalkField {
  std::string_view key;
  NormalWalk walk;
};

// A measurement whose fields are all N-step walks printed as truncated int64s, plus optional fixed
// string tags (appended after the host tags). Covers diskio, net, nginx, postgresl; kernel and redis
// extend it with one leading field.
class WalkMeasurement : public SimulatedMeasurement {
 public:
  WalkMeasurement(std::string_view name, int64_t start_ns, std::vector<WalkField> fields)
      : name_(name), timestamp_(start_ns), fields_(std::move(fields)) {}

  void AddTag(std::string_view key, std::string value) { tags_.push_back({key, std::move(value)}); }

  void Tick(GoRand& rng, int64_t interval_ns) override {
    timestamp_ += interval_ns;
    for (WalkField& f : fields_) f.walk.Advance(rng);
  }

  void ToPoint(Point* p) const override {
    p->SetMeasurement(name_);
    p->SetTimestamp(timestamp_);
    AppendLeadingFields(p);
    for (const WalkField& f : fields_) p->AppendInt(f.key, static_cast<int64_t>(f.walk.Get()));
    for (const auto& [key, value] : tags_) p->AppendTag(key, value);
  }

 protected:
  virtual void AppendLeadingFields(Point* p) const {}
  int64_t timestamp() const { return timestamp_; }

 private:
  std::string_view name_;
  int64_t timestamp_;
  std::vector<WalkField> fields_;
  std::vector<std::pair<std::string_view, std::string>> tags_;
};

std::unique_ptr<SimulatedMeasurement> NewDiskIo(GoRand& rng, int64_t start_ns) {
  auto m = std::make_unique<WalkMeasurement>(
      "diskio", start_ns,
      std::vector<WalkField>{{"reads", Mwd(50)},
                             {"writes", Mwd(50)},
                             {"read_bytes", Mwd(100)},
                             {"write_bytes", Mwd(100)},
                             {"read_time", Mwd(5)},
                             {"write_time", Mwd(5)},
                             {"io_time", Mwd(5)}});
  int64_t a = rng.Intn(1000);
  int64_t b = rng.Intn(1000);
  int64_t c = rng.Intn(1000);
  char serial[64];
  std::snprintf(serial, sizeof(serial), "%03lld-%03lld-%03lld", static_cast<long long>(a),
                static_cast<long long>(b), static_cast<long long>(c));
  m->AddTag("serial", serial);
  return m;
}

// disk: one hidden clamped walk (free bytes); the other fields derive from it.
class DiskMeasurement final : public SimulatedMeasurement {
 public:
  DiskMeasurement(GoRand& rng, int64_t start_ns) : timestamp_(start_ns) {
    path_ = "/dev/sda" + std::to_string(rng.Intn(10));
    static constexpr std::string_view kFsTypes[] = {"ext3", "ext4", "btrfs"};
    fs_type_ = kFsTypes[rng.Intn(3)];
    free_ = ClampedWalk(NormalStep{50, 1}, 0.0, kOneTerabyte, kOneTerabyte / 2);
  }

  void Tick(GoRand& rng, int64_t interval_ns) override {
    timestamp_ += interval_ns;
    free_.Advance(rng);
  }

  void ToPoint(Point* p) const override {
    p->SetMeasurement("disk");
    p->SetTimestamp(timestamp_);
    p->AppendTag("path", path_);
    p->AppendTag("fstype", fs_type_);
    constexpr int64_t kTotal = int64_t{1} << 40;
    constexpr int64_t kInodeSize = 4096;
    const int64_t free = static_cast<int64_t>(free_.Get());
    const int64_t used = kTotal - free;
    const int64_t used_percent =
        static_cast<int64_t>(100.0 * (static_cast<double>(used) / static_cast<double>(kTotal)));
    const int64_t inodes_total = kTotal / kInodeSize;
    const int64_t inodes_free = free / kInodeSize;
    p->AppendInt("total", kTotal);
    p->AppendInt("free", free);
    p->AppendInt("used", used);
    p->AppendInt("used_percent", used_percent);
    p->AppendInt("inodes_total", inodes_total);
    p->AppendInt("inodes_free", inodes_free);
    p->AppendInt("inodes_used", inodes_total - inodes_free);
  }

 private:
  int64_t timestamp_;
  std::string path_;
  std::string_view fs_type_;
  NormalWalk free_;
};

class KernelMeasurement final : public WalkMeasurement {
 public:
  KernelMeasurement(GoRand& rng, int64_t start_ns)
      : WalkMeasurement("kernel", start_ns,
                        {{"interrupts", Mwd(5)},
                         {"context_switches", Mwd(5)},
                         {"processes_forked", Mwd(5)},
                         {"disk_pages_in", Mwd(5)},
                         {"disk_pages_out", Mwd(5)}}),
        boot_time_(rng.Int63n(240)) {}

 private:
  void AppendLeadingFields(Point* p) const override { p->AppendInt("boot_time", boot_time_); }
  int64_t boot_time_;
};

// mem: three clamped walks (used, cached, buffered) with N(0, total/64) steps; `free` repeats
// `available`, and the percentages are computed from the truncated integers in TSBS's order.
class MemMeasurement final : public SimulatedMeasurement {
 public:
  MemMeasurement(GoRand& rng, int64_t start_ns) : timestamp_(start_ns) {
    static constexpr int64_t kTotals[] = {int64_t{8} << 30, int64_t{12} << 30, int64_t{16} << 30};
    total_ = kTotals[rng.Intn(3)];
    const double total = static_cast<double>(total_);
    const NormalStep step{0.0, total / 64};
    for (NormalWalk& w : walks_) w = ClampedWalk(step, 0.0, total, rng.Float64() * total);
  }

  void Tick(GoRand& rng, int64_t interval_ns) override {
    timestamp_ += interval_ns;
    for (NormalWalk& w : walks_) w.Advance(rng);
  }

  void ToPoint(Point* p) const override {
    p->SetMeasurement("mem");
    p->SetTimestamp(timestamp_);
    const int64_t used = static_cast<int64_t>(walks_[0].Get());
    const int64_t cached = static_cast<int64_t>(walks_[1].Get());
    const int64_t buffered = static_cast<int64_t>(walks_[2].Get());
    const int64_t available = total_ - used;
    const double total = static_cast<double>(total_);
    p->AppendInt("total", total_);
    p->AppendInt("available", available);
    p->AppendInt("used", used);
    p->AppendInt("free", available);
    p->AppendInt("cached", cached);
    p->AppendInt("buffered", buffered);
    p->AppendFloat("used_percent", 100.0 * (static_cast<double>(used) / total));
    p->AppendFloat("available_percent", 100.0 * (static_cast<double>(available) / total));
    p->AppendFloat("buffered_percent", 100.0 * static_cast<double>(buffered) / total);
  }

 private:
  int64_t timestamp_;
  int64_t total_;
  NormalWalk walks_[3];
};

std::unique_ptr<SimulatedMeasurement> NewNet(GoRand& rng, int64_t start_ns) {
  auto m = std::make_unique<WalkMeasurement>(
      "net", start_ns,
      std::vector<WalkField>{{"bytes_sent", Mwd(50)},
                             {"bytes_recv", Mwd(50)},
                             {"packets_sent", Mwd(50)},
                             {"packets_recv", Mwd(50)},
                             {"err_in", Mwd(5)},
                             {"err_out", Mwd(5)},
                             {"drop_in", Mwd(5)},
                             {"drop_out", Mwd(5)}});
  m->AddTag("interface", "eth" + std::to_string(rng.Intn(4)));
  return m;
}

// nginx and redis draw the server number, then the port; the row prints port first.
void AddServerTags(GoRand& rng, std::string_view prefix, WalkMeasurement* m) {
  std::string server = std::string(prefix) + std::to_string(rng.Intn(100000));
  std::string port = std::to_string(rng.Int63n(20000) + 1024);
  m->AddTag("port", std::move(port));
  m->AddTag("server", std::move(server));
}

std::unique_ptr<SimulatedMeasurement> NewNginx(GoRand& rng, int64_t start_ns) {
  auto m = std::make_unique<WalkMeasurement>(
      "nginx", start_ns,
      std::vector<WalkField>{{"accepts", Mwd(5)},
                             {"active", Cwd(5, 100)},
                             {"handled", Mwd(5)},
                             {"reading", Cwd(5, 100)},
                             {"requests", Mwd(5)},
                             {"waiting", Cwd(5, 100)},
                             {"writing", Cwd(5, 100)}});
  AddServerTags(rng, "nginx_", m.get());
  return m;
}

std::unique_ptr<SimulatedMeasurement> NewPostgresql(int64_t start_ns) {
  std::vector<WalkField> fields;
  for (std::string_view key : {"numbackends", "xact_commit", "xact_rollback", "blks_read",
                               "blks_hit", "tup_returned", "tup_fetched", "tup_inserted",
                               "tup_updated", "tup_deleted", "conflicts", "temp_files"}) {
    fields.push_back({key, Cwd(5, 1000)});
  }
  fields.push_back({"temp_bytes", Cwd(1024, 1073741824.0)});
  for (std::string_view key : {"deadlocks", "blk_read_time", "blk_write_time"}) {
    fields.push_back({key, Cwd(5, 1000)});
  }
  return std::make_unique<WalkMeasurement>("postgresl", start_ns, std::move(fields));
}

// redis: uptime_in_seconds (elapsed whole seconds of simulated time) leads the 30 walks.
class RedisMeasurement final : public WalkMeasurement {
 public:
  RedisMeasurement(int64_t start_ns, std::vector<WalkField> fields)
      : WalkMeasurement("redis", start_ns, std::move(fields)) {}

  void Tick(GoRand& rng, int64_t interval_ns) override {
    WalkMeasurement::Tick(rng, interval_ns);
    uptime_ns_ += interval_ns;
  }

 private:
  void AppendLeadingFields(Point* p) const override {
    p->AppendInt("uptime_in_seconds", uptime_ns_ / 1000000000);
  }
  int64_t uptime_ns_ = 0;
};

std::unique_ptr<SimulatedMeasurement> NewRedis(GoRand& rng, int64_t start_ns) {
  std::vector<WalkField> f = {
      {"total_connections_received", Mwd(5)},
      {"expired_keys", Mwd(50)},
      {"evicted_keys", Mwd(50)},
      {"keyspace_hits", Mwd(50)},
      {"keyspace_misses", Mwd(50)},
      {"instantaneous_ops_per_sec", Wd(1)},
      {"instantaneous_input_kbps", Wd(1)},
      {"instantaneous_output_kbps", Wd(1)},
      {"connected_clients", Cwd(50, 10000)},
      {"used_memory", Cwd(50, kSixteenGiB, kSixteenGiB / 2)},
      {"used_memory_rss", Cwd(50, kSixteenGiB, kSixteenGiB / 2)},
      {"used_memory_peak", Cwd(50, kSixteenGiB, kSixteenGiB / 2)},
      {"used_memory_lua", Cwd(50, kSixteenGiB, kSixteenGiB / 2)},
      {"rdb_changes_since_last_save", Cwd(50, 10000)},
  };
  for (std::string_view key : {"sync_full", "sync_partial_ok", "sync_partial_err", "pubsub_channels",
                               "pubsub_patterns", "latest_fork_usec", "connected_slaves",
                               "master_repl_offset", "repl_backlog_active", "repl_backlog_size",
                               "repl_backlog_histlen"}) {
    f.push_back({key, Cwd(5, 1000)});
  }
  f.push_back({"mem_fragmentation_ratio", Cwd(5, 100)});
  for (std::string_view key :
       {"used_cpu_sys", "used_cpu_user", "used_cpu_sys_children", "used_cpu_user_children"}) {
    f.push_back({key, Cwd(5, 1000)});
  }
  auto m = std::make_unique<RedisMeasurement>(start_ns, std::move(f));
  AddServerTags(rng, "redis_", m.get());
  return m;
}

}  // namespace

std::vector<std::unique_ptr<SimulatedMeasurement>> NewDevopsMeasurements(GoRand& rng,
                                                                         int64_t start_ns) {
  std::vector<std::unique_ptr<SimulatedMeasurement>> ms;
  ms.push_back(NewCpuMeasurement(rng, start_ns));
  ms.push_back(NewDiskIo(rng, start_ns));
  ms.push_back(std::make_unique<DiskMeasurement>(rng, start_ns));
  ms.push_back(std::make_unique<KernelMeasurement>(rng, start_ns));
  ms.push_back(std::make_unique<MemMeasurement>(rng, start_ns));
  ms.push_back(NewNet(rng, start_ns));
  ms.push_back(NewNginx(rng, start_ns));
  ms.push_back(NewPostgresql(start_ns));
  ms.push_back(NewRedis(rng, start_ns));
  return ms;
}

std::vector<std::unique_ptr<Generator>> NewDevopsHosts(GoRand& rng, uint64_t scale, int64_t start_ns) {
  std::vector<std::unique_ptr<Generator>> hosts;
  hosts.reserve(scale);
  for (uint64_t i = 0; i < scale; ++i) {
    hosts.push_back(NewDevopsHost(rng, static_cast<int64_t>(i), NewDevopsMeasurements(rng, start_ns)));
  }
  return hosts;
}

}  // namespace gnomon::bench
