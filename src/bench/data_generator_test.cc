#include "src/bench/data_generator.h"

#include <gtest/gtest.h>

#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "src/bench/test_sinks.h"
#include "src/bench/time_parse.h"

namespace gnomon::bench {
namespace {

constexpr int64_t kStart = 1686441600000000000;  // 2023-06-11T00:00:00Z
constexpr int64_t kSecond = 1000000000;

DataGenConfig Config(const char* use_case, uint64_t scale, int64_t hours = 24) {
  DataGenConfig c;
  c.use_case = use_case;
  c.scale = scale;
  c.seed = 123;
  c.start_ns = kStart;
  c.end_ns = kStart + hours * 3600 * kSecond;
  c.interval_ns = 10 * kSecond;
  return c;
}

std::vector<std::string> Lines(const DataGenConfig& c) {
  testing::StringFile out;
  auto stats = GenerateData(c, &out);
  EXPECT_TRUE(stats.ok()) << stats.status().ToString();
  std::vector<std::string> lines;
  std::istringstream in(out.data());
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  if (stats.ok()) {
    EXPECT_EQ(stats->rows_written, lines.size());
  }
  return lines;
}

std::string Tag(const std::string& line, const std::string& key) {
  size_t p = line.find("," + key + "=");
  if (p == std::string::npos || p > line.find(' ')) return "";
  p += key.size() + 2;
  return line.substr(p, line.find_first_of(", ", p) - p);
}

int64_t Timestamp(const std::string& line) { return std::stoll(line.substr(line.rfind(' ') + 1)); }

// Spec 3.4 [verified]: lines 4000-4002 of cpu-only, seed 123, scale 4000.
TEST(DataGeneratorTest, CpuOnlyScale4000EpochBoundaryMatchesTsbs) {
  DataGenConfig c = Config("cpu-only", 4000, 72);
  c.max_data_points = 4002;
  std::vector<std::string> lines = Lines(c);
  ASSERT_EQ(lines.size(), 4002u);
  EXPECT_EQ(lines[3999],
            "cpu,hostname=host_3999,region=ap-southeast-2,datacenter=ap-southeast-2a,rack=56,"
            "os=Ubuntu16.10,arch=x86,team=SF,service=7,service_version=1,"
            "service_environment=production usage_user=94i,usage_system=71i,usage_idle=4i,"
            "usage_nice=23i,usage_iowait=25i,usage_irq=90i,usage_softirq=94i,usage_steal=56i,"
            "usage_guest=48i,usage_guest_nice=66i 1686441600000000000");
  EXPECT_EQ(lines[4000],
            "cpu,hostname=host_0,region=eu-central-1,datacenter=eu-central-1a,rack=6,"
            "os=Ubuntu15.10,arch=x86,team=SF,service=19,service_version=1,service_environment=test "
            "usage_user=58i,usage_system=1i,usage_idle=23i,usage_nice=60i,usage_iowait=21i,"
            "usage_irq=64i,usage_softirq=5i,usage_steal=45i,usage_guest=80i,usage_guest_nice=39i "
            "1686441610000000000");
  EXPECT_EQ(lines[4001],
            "cpu,hostname=host_1,region=us-west-1,datacenter=us-west-1a,rack=41,os=Ubuntu15.10,"
            "arch=x64,team=NYC,service=9,service_version=1,service_environment=staging "
            "usage_user=85i,usage_system=11i,usage_idle=53i,usage_nice=89i,usage_iowait=28i,"
            "usage_irq=19i,usage_softirq=56i,usage_steal=78i,usage_guest=53i,usage_guest_nice=72i "
            "1686441610000000000");
}

// Spec 4.10 [verified]: devops, seed 123, scale 2, epoch 1, host_0 (host tags abbreviated there).
TEST(DataGeneratorTest, DevopsScale2SecondEpochMatchesTsbs) {
  std::vector<std::string> lines = Lines(Config("devops", 2, 1));
  ASSERT_EQ(lines.size(), 360u * 2 * 9);
  const std::string host0 =
      "hostname=host_0,region=eu-west-1,datacenter=eu-west-1c,rack=87,os=Ubuntu16.04LTS,arch=x64,"
      "team=NYC,service=18,service_version=1,service_environment=production";
  const char* expected[9] = {
      "cpu,H usage_user=57i,usage_system=3i,usage_idle=25i,usage_nice=61i,usage_iowait=23i,"
      "usage_irq=62i,usage_softirq=5i,usage_steal=46i,usage_guest=80i,usage_guest_nice=39i",
      "diskio,H,serial=987-302-182 reads=49i,writes=50i,read_bytes=100i,write_bytes=100i,"
      "read_time=4i,write_time=5i,io_time=5i",
      "disk,H,path=/dev/sda5,fstype=btrfs total=1099511627776i,free=549755813935i,"
      "used=549755813841i,used_percent=49i,inodes_total=268435456i,inodes_free=134217728i,"
      "inodes_used=134217728i",
      "kernel,H boot_time=119i,interrupts=3i,context_switches=4i,processes_forked=4i,"
      "disk_pages_in=3i,disk_pages_out=2i",
      "mem,H total=8589934592i,available=7107738934i,used=1482195658i,free=7107738934i,"
      "cached=7530429796i,buffered=7050893269i,used_percent=17.25502845365554,"
      "available_percent=82.74497154634446,buffered_percent=82.08320090780035",
      "net,H,interface=eth2 bytes_sent=51i,bytes_recv=49i,packets_sent=51i,packets_recv=48i,"
      "err_in=5i,err_out=4i,drop_in=7i,drop_out=3i",
      "nginx,H,port=19449,server=nginx_86294 accepts=5i,active=6i,handled=2i,reading=5i,"
      "requests=5i,waiting=5i,writing=5i",
      "postgresl,H numbackends=5i,xact_commit=4i,xact_rollback=3i,blks_read=3i,blks_hit=5i,"
      "tup_returned=4i,tup_fetched=5i,tup_inserted=4i,tup_updated=3i,tup_deleted=5i,conflicts=4i,"
      "temp_files=5i,temp_bytes=1025i,deadlocks=5i,blk_read_time=4i,blk_write_time=4i",
      "redis,H,port=7833,server=redis_27857 uptime_in_seconds=10i,total_connections_received=4i,"
      "expired_keys=49i,evicted_keys=49i,keyspace_hits=50i,keyspace_misses=49i,"
      "instantaneous_ops_per_sec=1i,instantaneous_input_kbps=0i,instantaneous_output_kbps=1i,"
      "connected_clients=50i,used_memory=8589934642i,used_memory_rss=8589934642i,"
      "used_memory_peak=8589934642i,used_memory_lua=8589934641i,rdb_changes_since_last_save=48i,"
      "sync_full=4i,sync_partial_ok=4i,sync_partial_err=4i,pubsub_channels=3i,pubsub_patterns=4i,"
      "latest_fork_usec=6i,connected_slaves=5i,master_repl_offset=5i,repl_backlog_active=5i,"
      "repl_backlog_size=5i,repl_backlog_histlen=4i,mem_fragmentation_ratio=4i,used_cpu_sys=4i,"
      "used_cpu_user=6i,used_cpu_sys_children=4i,used_cpu_user_children=5i"};
  // Epoch 1 starts at line 18; within it, measurement m of host 0 is line 18 + 2m.
  for (int m = 0; m < 9; ++m) {
    std::string want = expected[m];
    want.replace(want.find('H'), 1, host0);
    EXPECT_EQ(lines[18 + 2 * m], want + " 1686441610000000000") << "measurement " << m;
  }
}

// Spec 5.4 [verified]: iot, seed 123, scale 3.
TEST(DataGeneratorTest, IotScale3MatchesTsbsExample) {
  std::vector<std::string> lines = Lines(Config("iot", 3, 1));
  const std::string tags = "name=truck_0,fleet=South,driver=Trish,model=H-2,device_version=v2.3 "
                           "load_capacity=1500,fuel_capacity=150,nominal_fuel_consumption=12,";
  std::set<std::string> all(lines.begin(), lines.end());
  EXPECT_TRUE(all.count("readings," + tags +
                        "latitude=52.31854,longitude=4.72037,elevation=124,velocity=0,heading=221,"
                        "grade=0,fuel_consumption=25 1686441600000000000"));
  EXPECT_TRUE(all.count("diagnostics," + tags +
                        "fuel_state=1,current_load=0,status=0i 1686441600000000000"));
  EXPECT_TRUE(all.count("readings," + tags +
                        "latitude=52.32288,elevation=118,velocity=3,heading=218,grade=1,"
                        "fuel_consumption=28 1686441610000000000"));
  // About 90% of the nominal rows survive the perturbations.
  const double nominal = 2.0 * 3 * 360;
  EXPECT_GT(lines.size(), 0.8 * nominal);
  EXPECT_LT(lines.size(), 1.0 * nominal);
}

TEST(DataGeneratorTest, CpuOnlyShapeCountsPoolsAndRanges) {
  const uint64_t scale = 37;
  std::vector<std::string> lines = Lines(Config("cpu-only", scale, 1));
  ASSERT_EQ(lines.size(), 360 * scale);
  const std::set<std::string> regions = {"us-east-1", "us-west-1", "us-west-2", "eu-west-1",
                                         "eu-central-1", "ap-southeast-1", "ap-southeast-2",
                                         "ap-northeast-1", "sa-east-1"};
  std::set<std::string> hostnames;
  for (size_t i = 0; i < lines.size(); ++i) {
    const std::string& l = lines[i];
    ASSERT_EQ(l.rfind("cpu,hostname=host_" + std::to_string(i % scale) + ",", 0), 0u) << l;
    EXPECT_EQ(Timestamp(l), kStart + static_cast<int64_t>(i / scale) * 10 * kSecond);
    EXPECT_TRUE(regions.count(Tag(l, "region"))) << l;
    EXPECT_EQ(Tag(l, "datacenter").rfind(Tag(l, "region"), 0), 0u) << l;
    int rack = std::stoi(Tag(l, "rack")), service = std::stoi(Tag(l, "service"));
    EXPECT_TRUE(rack >= 0 && rack < 100 && service >= 0 && service < 20);
    EXPECT_TRUE(Tag(l, "arch") == "x64" || Tag(l, "arch") == "x86");
    hostnames.insert(Tag(l, "hostname"));
    // Ten integer fields in 0..100.
    std::string fields = l.substr(l.find(' ') + 1, l.rfind(' ') - l.find(' ') - 1);
    int n = 0;
    for (size_t p = 0; (p = fields.find('=', p)) != std::string::npos; ++p, ++n) {
      size_t e = fields.find('i', p);
      int v = std::stoi(fields.substr(p + 1, e - p - 1));
      EXPECT_TRUE(v >= 0 && v <= 100) << l;
    }
    EXPECT_EQ(n, 10);
  }
  EXPECT_EQ(hostnames.size(), scale);
}

TEST(DataGeneratorTest, DeterministicPerSeedAndSeedsDiffer) {
  DataGenConfig c = Config("devops", 3, 1);
  EXPECT_EQ(Lines(c), Lines(c));
  DataGenConfig d = c;
  d.seed = 124;
  EXPECT_NE(Lines(c), Lines(d));
  DataGenConfig i = Config("iot", 5, 1);
  EXPECT_EQ(Lines(i), Lines(i));
}

TEST(DataGeneratorTest, RampUpWritesInitialScaleFirst) {
  DataGenConfig c = Config("cpu-only", 10, 1);
  c.initial_scale = 2;
  std::vector<std::string> lines = Lines(c);
  auto rows_at = [&](int64_t ts) {
    int n = 0;
    for (const auto& l : lines) n += Timestamp(l) == ts;
    return n;
  };
  EXPECT_EQ(rows_at(kStart), 2);
  EXPECT_EQ(rows_at(kStart + 359 * 10 * kSecond), 10);  // last epoch: everyone
  // initial + floor((scale - initial) * k / (N_e - 1)) hosts in epoch k.
  EXPECT_EQ(rows_at(kStart + 180 * 10 * kSecond), 2 + (8 * 180) / 359);
}

TEST(DataGeneratorTest, MaxDataPointsAndInterleavedGroups) {
  DataGenConfig c = Config("cpu-only", 4, 1);
  c.max_data_points = 25;
  EXPECT_EQ(Lines(c).size(), 25u);

  DataGenConfig full = Config("devops", 2, 1);
  std::vector<std::string> all = Lines(full);
  std::vector<std::vector<std::string>> parts;
  for (uint64_t g = 0; g < 3; ++g) {
    DataGenConfig part = full;
    part.interleaved_groups = 3;
    part.interleaved_group_id = g;
    parts.push_back(Lines(part));
  }
  for (size_t i = 0; i < all.size(); ++i) ASSERT_EQ(parts[i % 3][i / 3], all[i]);
}

TEST(DataGeneratorTest, RejectsBadConfigs) {
  testing::StringFile out;
  DataGenConfig c = Config("cpu-only", 1);
  c.use_case = "bogus";
  EXPECT_TRUE(GenerateData(c, &out).status().IsInvalidArgument());
  c = Config("cpu-only", 0);
  EXPECT_TRUE(GenerateData(c, &out).status().IsInvalidArgument());
  c = Config("cpu-only", 1);
  c.interval_ns = 0;
  EXPECT_TRUE(GenerateData(c, &out).status().IsInvalidArgument());
  c = Config("cpu-only", 1);
  c.interleaved_group_id = 1;
  EXPECT_TRUE(GenerateData(c, &out).status().IsInvalidArgument());
  EXPECT_EQ(out.Size(), 0u);
}

TEST(DataGeneratorTest, EmptyWindowWritesNothing) {
  testing::StringFile out;
  DataGenConfig c = Config("iot", 3, 0);
  auto stats = GenerateData(c, &out);
  ASSERT_TRUE(stats.ok());
  EXPECT_EQ(stats->rows_written, 0u);
  EXPECT_EQ(out.Size(), 0u);
}

}  // namespace
}  // namespace gnomon::bench
