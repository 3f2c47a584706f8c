// ConstantForce::SetForce (mechanics/simple_force_fields.h): f = 0 and the constant force in one
// pass, bit for bit what clearing f and AddForce give, on any thread count.
#include <gtest/gtest.h>

#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "fluxion/threads.h"
#include "mechanics/simple_force_fields.h"

namespace fluxion::internal {
namespace {

bool SameBits(const Vector& a, const Vector& b) {
  return a.size() == b.size() &&
         std::memcmp(a.data(), b.data(), sizeof(double) * static_cast<size_t>(a.size())) == 0;
}

struct Layout {
  Index size, first, stride, count;
};

// Evenly spaced DOFs — gravity on one axis of every point, or of some — over vectors from a few
// entries to several 2048-entry blocks and both threads' shares, values of both signs and zeros
// of both signs; f starts as NaNs so that an entry SetForce forgets shows.
TEST(ConstantForce, SetForceIsClearThenAddForceBitForBit) {
  const Layout layouts[] = {{6, 1, 3, 2},         {300, 0, 3, 100},    {300, 2, 3, 90},
                            {60000, 1, 3, 20000}, {60000, 7, 5, 9000}, {100003, 1, 3, 33334}};
  std::mt19937 random(11);
  std::uniform_real_distribution<double> uniform(-20.0, 20.0);
  for (const Layout& layout : layouts) {
    std::vector<Index> dofs;
    std::vector<double> values;
    for (Index k = 0; k < layout.count; ++k) {
      dofs.push_back(layout.first + k * layout.stride);
      values.push_back(k % 7 == 0 ? -0.0 : k % 11 == 0 ? 0.0 : uniform(random));
    }
    ASSERT_LT(dofs.back(), layout.size);
    const ConstantForce force(dofs, values);
    Vector expected = Vector::Zero(layout.size);
    force.AddForce(State{}, expected);
    for (int threads = 1; threads <= 2; ++threads) {
      SetThreadCount(threads);
      Vector f = Vector::Constant(layout.size, std::numeric_limits<double>::quiet_NaN());
      ASSERT_TRUE(force.SetForce(f));
      EXPECT_TRUE(SameBits(f, expected)) << layout.size << " DOFs, " << threads << " threads";
    }
  }
  SetThreadCount(0);
}

// DOFs that are not evenly spaced: no one-pass form, f untouched.
TEST(ConstantForce, SetForceDeclinesUnevenDofs) {
  const ConstantForce force({0, 1, 5}, {1.0, 2.0, 3.0});
  Vector f = Vector::Constant(6, 4.0);
  EXPECT_FALSE(force.SetForce(f));
  EXPECT_EQ(f, Vector::Constant(6, 4.0));
}

}  // namespace
}  // namespace fluxion::internal
