// RowCountVersions: views see each series' count as it was when they opened, through any
// interleaving of writes, opens and closes; kept counts are dropped once no view is open.
#include "src/storage/row_count_versions.h"

#include <gtest/gtest.h>

#include <memory>
#include <random>
#include <vector>

namespace gnomon::storage {
namespace {

// A memtable's per-series counts and stamps, with the versions kept beside them.
struct Model {
  std::vector<uint32_t> rows, stamps;
  RowCountVersions versions;
  explicit Model(size_t slots) : rows(slots, 0), stamps(slots, 0) {}
  void Write(uint32_t slot, uint32_t n) {
    versions.BeforeWrite(slot, rows[slot], &stamps[slot]);
    rows[slot] += n;
  }
  uint32_t At(uint32_t slot, const RowCountVersions::View& v) const {
    return versions.RowsAt(slot, rows[slot], stamps[slot], v);
  }
};

TEST(RowCountVersionsTest, AViewSeesTheCountsOfItsOpening) {
  Model m(3);
  m.Write(0, 2);
  RowCountVersions::View v1 = m.versions.OpenView();
  m.Write(0, 1);  // after v1
  m.Write(1, 5);  // a series v1 never saw
  RowCountVersions::View v2 = m.versions.OpenView();
  m.Write(0, 4);
  m.Write(0, 1);  // twice in one batch
  m.Write(2, 7);
  EXPECT_EQ(m.At(0, v1), 2u);
  EXPECT_EQ(m.At(1, v1), 0u);
  EXPECT_EQ(m.At(2, v1), 0u);
  EXPECT_EQ(m.At(0, v2), 3u);
  EXPECT_EQ(m.At(1, v2), 5u);
  EXPECT_EQ(m.At(2, v2), 0u);
  RowCountVersions::View v3 = m.versions.OpenView();
  EXPECT_EQ(m.At(0, v3), 8u);
  EXPECT_EQ(m.At(2, v3), 7u);
}

TEST(RowCountVersionsTest, KeptCountsGoOnceNoViewIsOpen) {
  Model m(2);
  m.Write(0, 1);
  {
    RowCountVersions::View v = m.versions.OpenView();
    m.Write(0, 1);
    m.Write(1, 1);
    EXPECT_EQ(m.versions.kept_versions(), 1u);  // series 1 had no rows to keep
    EXPECT_EQ(m.At(0, v), 1u);
  }
  m.Write(0, 1);
  EXPECT_EQ(m.versions.kept_versions(), 0u);
  EXPECT_EQ(m.versions.bytes(), 0u);
  // With no view open again, writes keep nothing.
  for (int i = 0; i < 100; ++i) m.Write(i % 2, 1);
  EXPECT_EQ(m.versions.kept_versions(), 0u);
  RowCountVersions::View v = m.versions.OpenView();
  EXPECT_EQ(m.At(0, v), 53u);
  EXPECT_EQ(m.At(1, v), 51u);
}

TEST(RowCountVersionsTest, MovedViewsCloseOnce) {
  Model m(1);
  m.Write(0, 1);
  RowCountVersions::View a = m.versions.OpenView();
  RowCountVersions::View b = std::move(a);
  EXPECT_FALSE(a.open());
  m.Write(0, 1);
  EXPECT_EQ(m.At(0, b), 1u);
  b = RowCountVersions::View();  // closes
  m.Write(0, 1);
  EXPECT_EQ(m.versions.kept_versions(), 0u);
}

// Random batches of writes with views opened and closed between them; every open view is checked
// against the counts recorded when it opened, after every batch.
TEST(RowCountVersionsTest, RandomInterleavingsMatchRecordedCounts) {
  std::mt19937 rng(7);
  for (int round = 0; round < 20; ++round) {
    const uint32_t slots = 1 + rng() % 50;
    Model m(slots);
    struct Open {
      RowCountVersions::View view;
      std::vector<uint32_t> rows;
    };
    std::vector<std::unique_ptr<Open>> open;
    size_t most_kept = 0, writes = 0;
    for (int batch = 0; batch < 300; ++batch) {
      const int n = static_cast<int>(rng() % 8);
      for (int i = 0; i < n; ++i) {
        m.Write(rng() % slots, 1 + rng() % 3);
        ++writes;
      }
      if (rng() % 3 == 0) open.push_back(std::make_unique<Open>(Open{m.versions.OpenView(), m.rows}));
      if (!open.empty() && rng() % 4 == 0) open.erase(open.begin() + rng() % open.size());
      for (const auto& o : open) {
        for (uint32_t s = 0; s < slots; ++s) {
          ASSERT_EQ(m.At(s, o->view), o->rows[s]) << "round " << round << " batch " << batch << " slot " << s;
        }
      }
      most_kept = std::max(most_kept, m.versions.kept_versions());
    }
    // At most one kept count a write (and far fewer when views are rare).
    EXPECT_LE(most_kept, writes);
  }
}

}  // namespace
}  // namespace gnomon::storage
