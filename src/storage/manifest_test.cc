// Manifest encoding, loading and atomic replacement, and EscapeFileName.
#include "src/storage/manifest.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <limits>
#include <set>

#include "src/base/coding.h"
#include "src/base/crc32c.h"
#include "src/port/fault_injection_env.h"
#include "src/port/mem_env.h"

namespace gnomon::storage {
namespace {

void ExpectSame(const Manifest& a, const Manifest& b) {
  EXPECT_EQ(a.next_file_number, b.next_file_number);
  EXPECT_EQ(a.next_sequence, b.next_sequence);
  EXPECT_EQ(a.wal_first_live_segment, b.wal_first_live_segment);
  ASSERT_EQ(a.databases.size(), b.databases.size());
  for (size_t d = 0; d < a.databases.size(); ++d) {
    const ManifestDatabase& x = a.databases[d];
    const ManifestDatabase& y = b.databases[d];
    EXPECT_EQ(x.name, y.name);
    EXPECT_EQ(x.dir_name, y.dir_name);
    EXPECT_EQ(x.retention_ns, y.retention_ns);
    ASSERT_EQ(x.tables.size(), y.tables.size());
    for (size_t t = 0; t < x.tables.size(); ++t) {
      const ManifestTable& p = x.tables[t];
      const ManifestTable& q = y.tables[t];
      EXPECT_EQ(p.name, q.name);
      EXPECT_EQ(p.dir_name, q.dir_name);
      EXPECT_EQ(p.fields, q.fields);
      EXPECT_EQ(p.tag_keys, q.tag_keys);
      ASSERT_EQ(p.segments.size(), q.segments.size());
      for (size_t s = 0; s < p.segments.size(); ++s) {
        const ManifestSegment& m = p.segments[s];
        const ManifestSegment& n = q.segments[s];
        EXPECT_EQ(m.file_number, n.file_number);
        EXPECT_EQ(m.sequence, n.sequence);
        EXPECT_EQ(m.partition_start, n.partition_start);
        EXPECT_EQ(m.min_time, n.min_time);
        EXPECT_EQ(m.max_time, n.max_time);
        EXPECT_EQ(m.rows, n.rows);
        EXPECT_EQ(m.bytes, n.bytes);
      }
    }
  }
}

Manifest Sample() {
  Manifest m;
  m.next_file_number = 1234567;
  m.next_sequence = 1ull << 40;
  m.wal_first_live_segment = 17;
  ManifestDatabase db;
  db.name = "telegraf/prod";
  db.dir_name = EscapeFileName(db.name) + "-3";
  db.retention_ns = 7 * 24 * 3600 * 1000000000ll;
  ManifestTable cpu;
  cpu.name = "cpu";
  cpu.dir_name = "cpu-5";
  cpu.fields = {{"usage_user", ValueType::kFloat64}, {"n", ValueType::kInt64},
                {"u", ValueType::kUInt64},           {"ok", ValueType::kBool},
                {"msg", ValueType::kString}};
  cpu.tag_keys = {"host", "region"};
  cpu.segments.push_back({6, 2, -86400000000000, -86399999999999, -1, 10, 4096});
  cpu.segments.push_back({9, 4, 0, 0, std::numeric_limits<int64_t>::max(),
                          std::numeric_limits<uint64_t>::max(), 1});
  ManifestTable empty;
  empty.name = "";
  empty.dir_name = "%-8";
  db.tables = {cpu, empty};
  ManifestDatabase other;
  other.name = "ünïcode db";
  other.dir_name = "x";
  other.retention_ns = -1;
  m.databases = {db, other};
  return m;
}

TEST(ManifestCodec, RoundTrip) {
  for (const Manifest& m : {Manifest{}, Sample()}) {
    std::string bytes = EncodeManifest(m);
    Manifest decoded;
    Status s = DecodeManifest(bytes, &decoded);
    ASSERT_TRUE(s.ok()) << s.ToString();
    ExpectSame(m, decoded);
    EXPECT_EQ(EncodeManifest(decoded), bytes);
  }
}

TEST(ManifestCodec, EveryCorruptedByteIsDetected) {
  const std::string bytes = EncodeManifest(Sample());
  for (size_t i = 0; i < bytes.size(); ++i) {
    for (uint8_t mask : {uint8_t{0x01}, uint8_t{0xFF}}) {
      std::string bad = bytes;
      bad[i] = static_cast<char>(bad[i] ^ mask);
      Manifest m;
      Status s = DecodeManifest(bad, &m);
      ASSERT_TRUE(s.IsCorruption()) << "byte " << i << ": " << s.ToString();
      EXPECT_NE(s.message().find(kManifestFileName), std::string::npos) << s.ToString();
    }
  }
}

TEST(ManifestCodec, EveryTruncationIsDetected) {
  const std::string bytes = EncodeManifest(Sample());
  for (size_t len = 0; len < bytes.size(); ++len) {
    Manifest m;
    Status s = DecodeManifest(std::string_view(bytes).substr(0, len), &m);
    ASSERT_TRUE(s.IsCorruption()) << "length " << len << ": " << s.ToString();
  }
}

TEST(ManifestCodec, TrailingGarbageIsDetected) {
  const std::string bytes = EncodeManifest(Sample());
  Manifest m;
  EXPECT_TRUE(DecodeManifest(bytes + "x", &m).IsCorruption());
  EXPECT_TRUE(DecodeManifest(bytes + bytes, &m).IsCorruption());
  // Garbage before the checksum, with a checksum that covers it: caught by the parser itself.
  std::string body = bytes.substr(0, bytes.size() - 4) + std::string("\x07\x00", 2);
  PutFixed32(&body, crc32c::Mask(crc32c::Value(body)));
  Status s = DecodeManifest(body, &m);
  EXPECT_TRUE(s.IsCorruption());
  EXPECT_NE(s.message().find("trailing"), std::string::npos) << s.ToString();
}

TEST(ManifestCodec, ImplausibleCountsAreRejectedNotAllocated) {
  // A valid checksum over a header that claims 2^60 databases must fail fast.
  std::string body("GNOMMAN1", 8);
  PutVarint64(&body, 1);
  PutVarint64(&body, 1);
  PutVarint64(&body, 0);
  PutVarint64(&body, 1ull << 60);
  PutFixed32(&body, crc32c::Mask(crc32c::Value(body)));
  Manifest m;
  EXPECT_TRUE(DecodeManifest(body, &m).IsCorruption());
}

class ManifestFileTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(mem_.CreateDirs("/data").ok()); }

  Result<Manifest> Load() { return LoadManifest(&fault_, "/data"); }

  port::MemEnv mem_;
  port::FaultInjectionEnv fault_{&mem_};
};

TEST_F(ManifestFileTest, MissingFileIsAnEmptyManifest) {
  auto m = Load();
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  ExpectSame(*m, Manifest{});
  EXPECT_EQ(m->next_file_number, 1u);
  EXPECT_TRUE(m->databases.empty());
}

TEST_F(ManifestFileTest, SaveThenLoad) {
  ASSERT_TRUE(SaveManifest(&fault_, "/data", Sample()).ok());
  EXPECT_FALSE(mem_.FileExists("/data/MANIFEST.tmp"));
  auto m = Load();
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  ExpectSame(*m, Sample());
  // Durable: a power loss right after the save keeps it.
  ASSERT_TRUE(fault_.SimulateCrash().ok());
  m = Load();
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  ExpectSame(*m, Sample());
}

TEST_F(ManifestFileTest, CorruptFileIsCorruptionNamingThePath) {
  ASSERT_TRUE(SaveManifest(&fault_, "/data", Sample()).ok());
  ASSERT_TRUE(fault_.CorruptByte("/data/MANIFEST", 20).ok());
  auto m = Load();
  ASSERT_FALSE(m.ok());
  EXPECT_TRUE(m.status().IsCorruption());
  EXPECT_NE(m.status().message().find("/data/MANIFEST"), std::string::npos)
      << m.status().ToString();
}

// Forwards to a FaultInjectionEnv and "loses power" around the rename: before it (the temp file
// is written and synced, the rename never happens) or after it (the rename happened, the
// directory sync never does).
class CrashAtRenameEnv final : public port::Env {
 public:
  enum class When { kBeforeRename, kAfterRename };
  CrashAtRenameEnv(port::FaultInjectionEnv* base, When when) : base_(base), when_(when) {}

  Result<std::unique_ptr<port::WritableFile>> NewWritableFile(const std::string& p) override {
    return base_->NewWritableFile(p);
  }
  Result<std::unique_ptr<port::WritableFile>> NewAppendableFile(const std::string& p) override {
    return base_->NewAppendableFile(p);
  }
  Result<std::unique_ptr<port::SequentialFile>> NewSequentialFile(const std::string& p) override {
    return base_->NewSequentialFile(p);
  }
  Result<std::unique_ptr<port::RandomAccessFile>> NewRandomAccessFile(
      const std::string& p) override {
    return base_->NewRandomAccessFile(p);
  }
  bool FileExists(const std::string& p) override { return base_->FileExists(p); }
  Result<std::vector<std::string>> GetChildren(const std::string& d) override {
    return base_->GetChildren(d);
  }
  Result<uint64_t> GetFileSize(const std::string& p) override { return base_->GetFileSize(p); }
  Status RemoveFile(const std::string& p) override { return base_->RemoveFile(p); }
  Status RemoveDirRecursive(const std::string& d) override { return base_->RemoveDirRecursive(d); }
  Status CreateDirs(const std::string& d) override { return base_->CreateDirs(d); }
  Status RenameFile(const std::string& from, const std::string& to) override {
    if (when_ == When::kBeforeRename) base_->SetFilesystemActive(false);
    Status s = base_->RenameFile(from, to);
    if (when_ == When::kAfterRename) base_->SetFilesystemActive(false);
    return s;
  }
  Status TruncateFile(const std::string& p, uint64_t n) override {
    return base_->TruncateFile(p, n);
  }
  Status SyncDir(const std::string& d) override { return base_->SyncDir(d); }

 private:
  port::FaultInjectionEnv* base_;
  When when_;
};

Manifest Newer() {
  Manifest m = Sample();
  m.next_file_number += 100;
  m.databases.pop_back();
  m.databases[0].tables[0].segments.push_back({77, 8, 86400000000000, 86400000000000,
                                               86400000000001, 2, 200});
  return m;
}

TEST_F(ManifestFileTest, CrashBetweenTempWriteAndRenameKeepsTheOldManifest) {
  ASSERT_TRUE(SaveManifest(&fault_, "/data", Sample()).ok());
  for (auto mode : {port::FaultInjectionEnv::CrashMode::kDropUnsynced,
                    port::FaultInjectionEnv::CrashMode::kGarbageTail}) {
    CrashAtRenameEnv crashing(&fault_, CrashAtRenameEnv::When::kBeforeRename);
    Status s = SaveManifest(&crashing, "/data", Newer());
    EXPECT_FALSE(s.ok());
    ASSERT_TRUE(fault_.SimulateCrash(mode, 7).ok());
    auto m = Load();
    ASSERT_TRUE(m.ok()) << m.status().ToString();
    ExpectSame(*m, Sample());
  }
  // The next save after the reboot goes through (a leftover temp file is simply replaced).
  ASSERT_TRUE(SaveManifest(&fault_, "/data", Newer()).ok());
  auto m = Load();
  ASSERT_TRUE(m.ok());
  ExpectSame(*m, Newer());
}

TEST_F(ManifestFileTest, CrashAfterRenameBeforeDirSyncKeepsAManifest) {
  ASSERT_TRUE(SaveManifest(&fault_, "/data", Sample()).ok());
  CrashAtRenameEnv crashing(&fault_, CrashAtRenameEnv::When::kAfterRename);
  EXPECT_FALSE(SaveManifest(&crashing, "/data", Newer()).ok());
  ASSERT_TRUE(fault_.SimulateCrash().ok());
  ASSERT_TRUE(mem_.FileExists("/data/MANIFEST"))
      << "the old or the new manifest must survive a rename that was not yet made durable";
  auto m = Load();
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  // FaultInjectionEnv treats a rename as durable at once: the new manifest.
  ExpectSame(*m, Newer());
}

TEST_F(ManifestFileTest, WriteFailureAtAnyByteKeepsOldOrNew) {
  ASSERT_TRUE(SaveManifest(&fault_, "/data", Sample()).ok());
  const size_t size = EncodeManifest(Newer()).size();
  for (size_t budget = 0; budget <= size; ++budget) {
    SCOPED_TRACE("write budget " + std::to_string(budget));
    ASSERT_TRUE(SaveManifest(&fault_, "/data", Sample()).ok());
    fault_.FailWritesAfterBytes(budget);
    Status s = SaveManifest(&fault_, "/data", Newer());
    EXPECT_EQ(s.ok(), budget == size) << s.ToString();
    ASSERT_TRUE(fault_.SimulateCrash(port::FaultInjectionEnv::CrashMode::kGarbageTail, budget).ok());
    auto m = Load();
    ASSERT_TRUE(m.ok()) << m.status().ToString();
    ExpectSame(*m, budget == size ? Newer() : Sample());
  }
  // A failed sync of the temp file: no rename, the old manifest stays.
  ASSERT_TRUE(SaveManifest(&fault_, "/data", Sample()).ok());
  fault_.FailSyncsAfter(0);
  EXPECT_FALSE(SaveManifest(&fault_, "/data", Newer()).ok());
  ASSERT_TRUE(fault_.SimulateCrash().ok());
  auto m = Load();
  ASSERT_TRUE(m.ok());
  ExpectSame(*m, Sample());
}

// The inverse of EscapeFileName, for checking that it loses nothing.
std::string Unescape(const std::string& escaped) {
  if (escaped == "%") return "";
  std::string out;
  for (size_t i = 0; i < escaped.size(); ++i) {
    if (escaped[i] != '%') {
      out.push_back(escaped[i]);
      continue;
    }
    EXPECT_LE(i + 2, escaped.size() - 1) << escaped;
    out.push_back(static_cast<char>(std::stoi(escaped.substr(i + 1, 2), nullptr, 16)));
    i += 2;
  }
  return out;
}

TEST(EscapeFileName, RoundTripsAndIsSafe) {
  const std::vector<std::string> names = {
      "cpu",  "a/b",  "/",    "50%",   "%25",  "with space", "ünïcode", "日本語",
      ".",    "..",   "...",  ".hidden", "a.b",  "-", "_", "A-Z_a-z_0-9",
      std::string("nul\0x", 5), "tab\t", "\xff\xfe", "%", "%%", "a%2Fb",
      std::string(255, '/')};
  std::set<std::string> seen;
  for (const std::string& name : names) {
    std::string e = EscapeFileName(name);
    SCOPED_TRACE(e);
    EXPECT_EQ(Unescape(e), name);
    EXPECT_FALSE(e.empty());
    EXPECT_NE(e, ".");
    EXPECT_NE(e, "..");
    for (char c : e) {
      EXPECT_TRUE(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '%')
          << "unsafe byte " << int{static_cast<unsigned char>(c)};
    }
    EXPECT_TRUE(seen.insert(e).second) << "two names share the escape " << e;
  }
  EXPECT_EQ(EscapeFileName("cpu"), "cpu");
  EXPECT_EQ(EscapeFileName("a/b"), "a%2Fb");
  EXPECT_EQ(EscapeFileName(".."), "%2E%2E");
  EXPECT_EQ(EscapeFileName("a b"), "a%20b");
}

TEST(EscapeFileName, EscapedNamesAreUsableDirectories) {
  port::Env* env = port::Env::Default();
  const std::string root =
      ::testing::TempDir() + "/gnomon_escape_" + std::to_string(::getpid());
  ASSERT_TRUE(env->CreateDirs(root).ok());
  std::set<std::string> made;
  for (const std::string name : {"..", ".", "a/b", "a b", "ünï", "%"}) {
    std::string dir = port::JoinPath(root, EscapeFileName(name));
    ASSERT_TRUE(env->CreateDirs(dir).ok()) << dir;
    made.insert(EscapeFileName(name));
  }
  auto children = env->GetChildren(root);
  ASSERT_TRUE(children.ok());
  // Each name got its own directory directly under root ("..", "." and "/" did not escape it).
  EXPECT_EQ(std::set<std::string>(children->begin(), children->end()), made);
  ASSERT_TRUE(env->RemoveDirRecursive(root).ok());
}

}  // namespace
}  // namespace gnomon::storage
