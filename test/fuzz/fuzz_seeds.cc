// Writes the seed corpora of the fuzz targets whose inputs are binary files, with the real
// encoders: WAL segments (Wal), manifests (EncodeManifest) and token files (EncodeTokenFile).
// Run by hand after a format change: build/test/fuzz/fuzz_seeds <repository root>. (Segment seeds
// are the golden segments of src/storage/testdata; the text corpora are written by hand.)
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "src/port/mem_env.h"
#include "src/server/auth/token_file.h"
#include "src/storage/manifest.h"
#include "src/wal/segment_file.h"
#include "src/wal/wal.h"

using namespace gnomon;  // NOLINT

namespace {

bool Write(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!out) std::fprintf(stderr, "fuzz_seeds: cannot write %s\n", path.c_str());
  return static_cast<bool>(out);
}

// Segment 1 of a WAL holding `records`, as Wal writes it.
std::string WalSegment(const std::vector<std::string>& records) {
  port::MemEnv env;
  wal::WalOptions options;
  options.env = &env;
  options.dir = "/wal";
  auto w = wal::Wal::Open(options);
  if (!w.ok()) return {};
  for (const std::string& r : records) (void)(*w)->Append(r, /*sync=*/false);
  (void)(*w)->Close();
  auto bytes = port::ReadFileToString(&env, "/wal/" + wal::SegmentFileName(1));
  return bytes.ok() ? *bytes : std::string();
}

std::string Pattern(size_t n, char seed) {
  std::string s(n, '\0');
  for (size_t i = 0; i < n; ++i) s[i] = static_cast<char>(seed + i * 7);
  return s;
}

storage::Manifest SmallManifest() {
  storage::Manifest m;
  m.next_file_number = 9;
  m.next_sequence = 5;
  m.wal_first_live_segment = 3;
  storage::ManifestDatabase db;
  db.name = "telegraf";
  db.dir_name = "telegraf";
  db.retention_ns = 7LL * 86400 * 1000000000;
  storage::ManifestTable t;
  t.name = "cpu";
  t.dir_name = "cpu";
  t.fields = {{"usage_user", ValueType::kFloat64}, {"count", ValueType::kInt64},
              {"total", ValueType::kUInt64}, {"up", ValueType::kBool}, {"note", ValueType::kString}};
  t.tag_keys = {"host", "region"};
  t.segments = {{4, 2, 1700000000000000000, 1700000000000000000, 1700003599000000000, 3600, 81234},
                {7, 4, 1700003600000000000, 1700003600000000000, 1700007199000000000, 10, 2048}};
  db.tables.push_back(t);
  storage::ManifestTable mem;
  mem.name = "a/b mem";
  mem.dir_name = storage::EscapeFileName(mem.name);
  mem.fields = {{"free", ValueType::kInt64}};
  db.tables.push_back(mem);
  m.databases.push_back(db);
  storage::ManifestDatabase empty;
  empty.name = "empty";
  empty.dir_name = "empty";
  m.databases.push_back(empty);
  return m;
}

std::vector<server::auth::TokenRecord> Tokens(size_t n) {
  using server::auth::Access;
  std::vector<server::auth::TokenRecord> out;
  const Access kinds[] = {Access::kRead, Access::kWrite, Access::kAdmin};
  for (size_t i = 0; i < n; ++i) {
    server::auth::TokenRecord t;
    t.name = "token-" + std::to_string(i) + (i == 2 ? ".ci_bot" : "");
    t.access = kinds[i % 3];
    if (i % 2 == 1) t.databases = {"telegraf", "db_" + std::to_string(i)};
    t.created_ns = 1764000000000000000 + static_cast<int64_t>(i) * 1000000007;
    for (size_t k = 0; k < t.hash.size(); ++k) t.hash[k] = static_cast<uint8_t>(i * 31 + k * 7);
    out.push_back(t);
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: fuzz_seeds <repository root>\n");
    return 2;
  }
  const std::string root = argv[1];
  const std::string wal = root + "/src/wal/fuzz_corpus/";
  const std::string manifest = root + "/src/storage/fuzz_corpus/manifest/";
  const std::string tokens = root + "/src/server/auth/fuzz_corpus/token_file_";
  bool ok = true;
  ok &= Write(wal + "header_only", WalSegment({}));
  ok &= Write(wal + "small_records", WalSegment({"a", "", "cpu,host=a usage=1 1", Pattern(300, 'x')}));
  // A record cut into first/middle/last fragments across three 32 KiB blocks.
  ok &= Write(wal + "spanning_record", WalSegment({"before", Pattern(70000, 'q'), "after"}));
  ok &= Write(manifest + "empty", storage::EncodeManifest(storage::Manifest{}));
  ok &= Write(manifest + "two_databases", storage::EncodeManifest(SmallManifest()));
  ok &= Write(tokens + "empty", server::auth::EncodeTokenFile({}));
  ok &= Write(tokens + "one", server::auth::EncodeTokenFile(Tokens(1)));
  ok &= Write(tokens + "four", server::auth::EncodeTokenFile(Tokens(4)));
  return ok ? 0 : 1;
}
