#include "src/bench/influx_serializer.h"

#include <gtest/gtest.h>

#include <string>

namespace gnomon::bench {
namespace {

std::string Line(const Point& p) {
  std::string buf(InfluxLineBound(p), '\0');
  char* end = AppendInfluxLine(p, buf.data());
  buf.resize(static_cast<size_t>(end - buf.data()));
  return buf;
}

std::string F64(double v) {
  char buf[400];
  return std::string(buf, FormatFloat64(v, buf));
}

std::string F32(float v) {
  char buf[64];
  return std::string(buf, FormatFloat32(v, buf));
}

TEST(InfluxSerializerTest, FloatsUseGoShortestPlainDecimal) {
  // Expected strings are what Go's strconv.FormatFloat(v, 'f', -1, 64) prints.
  EXPECT_EQ(F64(15.607654908671975), "15.607654908671975");
  EXPECT_EQ(F64(0.9), "0.9");
  EXPECT_EQ(F64(1500), "1500");
  EXPECT_EQ(F64(0), "0");
  EXPECT_EQ(F64(-0.0), "-0");
  EXPECT_EQ(F64(1e21), "1000000000000000000000");
  EXPECT_EQ(F64(1e-7), "0.0000001");
  EXPECT_EQ(F64(17.25502845365554), "17.25502845365554");
  EXPECT_EQ(F64(52.31854), "52.31854");
  EXPECT_EQ(F32(1500.0f), "1500");
  EXPECT_EQ(F32(0.1f), "0.1");  // float32 shortest, not the float64 expansion of 0.1f
}

TEST(InfluxSerializerTest, TagsFieldsAndTimestamp) {
  Point p;
  p.SetMeasurement("cpu");
  p.AppendTag("hostname", "host_0");
  p.AppendTag("region", "eu-west-1");
  p.AppendInt("usage_user", 58);
  p.AppendFloat("pct", 17.5);
  p.SetTimestamp(1686441600000000000);
  EXPECT_EQ(Line(p), "cpu,hostname=host_0,region=eu-west-1 usage_user=58i,pct=17.5 1686441600000000000\n");
}

TEST(InfluxSerializerTest, Float32TagsBecomeLeadingFieldsAndNullsAreOmitted) {
  Point p;
  p.SetMeasurement("readings");
  p.AppendTag("name", "truck_0");
  p.AppendTag("fleet", "South");
  p.AppendFloat32Tag("load_capacity", 1500);
  p.AppendFloat32Tag("fuel_capacity", 150);
  p.AppendFloat("latitude", 52.31854);
  p.AppendFloat("longitude", 4.72037);
  p.AppendInt("status", 0);
  p.ClearTag(1);
  p.ClearTag(3);
  p.ClearField(1);
  p.SetTimestamp(10);
  EXPECT_EQ(Line(p), "readings,name=truck_0 load_capacity=1500,latitude=52.31854,status=0i 10\n");
}

TEST(InfluxSerializerTest, AllNullFieldsDropTheLine) {
  Point p;
  p.SetMeasurement("m");
  p.AppendTag("t", "v");
  p.AppendInt("a", 1);
  p.ClearField(0);
  p.SetTimestamp(1);
  EXPECT_EQ(Line(p), "");
}

TEST(InfluxSerializerTest, Int64Extremes) {
  char buf[32];
  EXPECT_EQ(std::string(buf, FormatInt64(INT64_MIN, buf)), "-9223372036854775808");
  EXPECT_EQ(std::string(buf, FormatInt64(1099511627776, buf)), "1099511627776");
}

}  // namespace
}  // namespace gnomon::bench
