// FitOrder (tools/fluxion_analyze/order_fit.h) on error sequences built by hand: C·h^p exactly,
// with a round-off-limited finest run, and with a pre-asymptotic coarsest run. The expected orders
// are the p the sequences were built from.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "order_fit.h"

namespace fluxion::analysis {
namespace {

// Errors e = h^p (1 + c·h) at h = h0/2^i, each with the given round-off.
std::vector<OrderSample> Sequence(double p, double c, int levels, double round_off) {
  std::vector<OrderSample> samples;
  for (int i = 0; i < levels; ++i) {
    const double h = std::ldexp(0.1, -i);
    samples.push_back({h, std::pow(h, p) * (1.0 + c * h), round_off});
  }
  return samples;
}

TEST(OrderFit, ExactPowerLawGivesItsExponent) {
  const OrderFit fit = FitOrder(Sequence(4.0, 0.0, 4, 0.0));
  ASSERT_TRUE(fit.order.has_value());
  EXPECT_NEAR(*fit.order, 4.0, 1e-12);
  EXPECT_EQ(fit.first, 0u);
  EXPECT_EQ(fit.last, 3u);
  ASSERT_EQ(fit.pair_orders.size(), 3u);
  for (const double order : fit.pair_orders) EXPECT_NEAR(order, 4.0, 1e-12);
}

// The case: RK4's finest pair, bent by round-off, gave 3.54. Here the finest run's error
// is what such a pair gives (2^3.54 below the previous run's, ≈ 2.1e-9) on a round-off of 1e-10:
// above the floor of 10 × 1e-10, but its pair falls 0.46 below the previous pair's, so the run is
// left out and the fit of the four others is 4.
TEST(OrderFit, RoundOffBentPairIsLeftOut) {
  std::vector<OrderSample> samples = Sequence(4.0, 0.0, 5, 1e-10);
  samples[4].error = samples[3].error / std::exp2(3.54);
  const OrderFit fit = FitOrder(samples);
  ASSERT_TRUE(fit.order.has_value());
  EXPECT_NEAR(*fit.order, 4.0, 1e-12);
  EXPECT_EQ(fit.first, 0u);
  EXPECT_EQ(fit.last, 3u);
  EXPECT_NEAR(fit.pair_orders[3], 3.54, 1e-12);  // what "the finest pair" would have reported
}

// A run whose error is under 10 times its round-off is not used at all, even as the only pair:
// h^4 at h = 0.1/2^i is 1e-4, 6.3e-6, 3.9e-7, 2.4e-8; with a round-off of 1e-7 only the first two
// runs count.
TEST(OrderFit, RunsBelowTenTimesTheirRoundOffAreLeftOut) {
  const OrderFit fit = FitOrder(Sequence(4.0, 0.0, 4, 1e-7));
  ASSERT_TRUE(fit.order.has_value());
  EXPECT_EQ(fit.first, 0u);
  EXPECT_EQ(fit.last, 1u);
  EXPECT_NEAR(*fit.order, 4.0, 1e-12);
}

// e = h(1 + 5h): the pair orders fall 1.26, 1.15, 1.08, 1.04, 1.02 towards 1. The two coarsest
// pairs differ from their next by 0.11 and 0.07 > 0.05 and are left out; the fit over the four
// finest runs is 1.05, where the fit over all six is 1.11.
TEST(OrderFit, PreAsymptoticCoarseRunsAreLeftOut) {
  const OrderFit fit = FitOrder(Sequence(1.0, 5.0, 6, 0.0));
  ASSERT_TRUE(fit.order.has_value());
  EXPECT_EQ(fit.first, 2u);
  EXPECT_EQ(fit.last, 5u);
  EXPECT_NEAR(*fit.order, 1.0, 0.06);
}

TEST(OrderFit, NoTwoUsableRunsGiveNoOrder) {
  EXPECT_FALSE(FitOrder(Sequence(2.0, 0.0, 4, 1.0)).order.has_value());  // all below the floor
  std::vector<OrderSample> samples = Sequence(2.0, 0.0, 4, 0.0);
  samples[1].error = NAN;  // a failed run splits the sequence: 0 | 2 3 remain
  const OrderFit fit = FitOrder(samples);
  ASSERT_TRUE(fit.order.has_value());
  EXPECT_EQ(fit.first, 2u);
  EXPECT_NEAR(*fit.order, 2.0, 1e-12);
}

// #27 item 9: errors that do not fall with h, all well above their round-off estimate (RK4 on a
// constant force: its errors, 1.4e-10 at every dt, are the reference's round-off over 10⁵ steps):
// a slope of 0 is no order, said as `flat`, not reported as an order of −0.003.
TEST(OrderFit, ErrorsThatDoNotFallWithTheStepAreNoOrder) {
  const OrderFit fit = FitOrder(Sequence(0.0, 0.0, 4, 1e-12));
  EXPECT_FALSE(fit.order.has_value());
  EXPECT_TRUE(fit.flat);
  EXPECT_NEAR(fit.slope, 0.0, 1e-12);
  EXPECT_EQ(fit.usable, 4u);
  // A first-order sequence is kept (the threshold is 0.5).
  EXPECT_TRUE(FitOrder(Sequence(1.0, 0.0, 4, 0.0)).order.has_value());
}

}  // namespace
}  // namespace fluxion::analysis
