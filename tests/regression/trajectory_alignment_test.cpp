// Trajectories compared at common times (scene-runner --compare --align time, #27 item 7): the
// interpolation's error against its closed-form bounds, recorded times read as written, and the
// error-over-time report on runs whose difference is known in closed form.
#include "trajectory_alignment.h"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <numbers>

#include "trajectory_interpolation.h"

namespace fluxion::regress {
namespace {

// A trajectory of one 1-D point on x(t) = sin ωt (v = ω cos ωt), and a column `e` = x without its
// velocity, recorded at t = 0, h, 2h, …, n·h.
Trajectory Sampled(double h, long n, double omega) {
  Trajectory trajectory;
  trajectory.columns = {"time", "root/p/p0.x", "root/p/v0.x", "e"};
  for (long k = 0; k <= n; ++k) {
    const double t = static_cast<double>(k) * h;
    trajectory.steps.push_back(k);
    trajectory.rows.push_back(
        {t, std::sin(omega * t), omega * std::cos(omega * t), std::sin(omega * t)});
  }
  return trajectory;
}

// The largest |read − exact| of a column at the midpoints of every interval.
double MidpointError(const Trajectory& trajectory, std::size_t column,
                     const std::function<double(double)>& exact) {
  const TrajectoryInterpolator reader(trajectory);
  double worst = 0;
  for (std::size_t r = 0; r + 1 < trajectory.rows.size(); ++r) {
    const double t = 0.5 * (trajectory.rows[r][0] + trajectory.rows[r + 1][0]);
    const auto where = reader.Locate(t);
    EXPECT_FALSE(where.exact);
    worst = std::max(worst, std::fabs(reader.ValueAt(column, t, where) - exact(t)));
  }
  return worst;
}

// Cubic Hermite on x with its recorded velocity: at the midpoint its error is
// x⁗(ξ)·s²(1−s)²h⁴/4! = ω⁴h⁴/384·sin ωξ, so over a whole period the largest is within a few
// percent of ω⁴h⁴/384 (bound: never above it), and it falls 16-fold per halving of h.
TEST(TrajectoryInterpolation, HermiteOnPositionsMeetsItsFourthOrderBound) {
  const double omega = 2.0, period = 2 * std::numbers::pi / omega;
  const auto x = [&](double t) { return std::sin(omega * t); };
  double previous = 0;
  for (const long n : {20L, 40L, 80L}) {
    const double h = period / static_cast<double>(n);
    const Trajectory trajectory = Sampled(h, n, omega);
    EXPECT_EQ(TrajectoryInterpolator(trajectory).rule(1), InterpolationRule::kHermite);
    const double error = MidpointError(trajectory, 1, x);
    const double bound = std::pow(omega * h, 4) / 384;
    EXPECT_LE(error, bound * (1 + 1e-6)) << "n = " << n;
    EXPECT_GE(error, 0.95 * bound) << "n = " << n;
    if (previous > 0) {
      EXPECT_NEAR(previous / error, 16.0, 0.5) << "n = " << n;
    }
    previous = error;
  }
}

// Without its velocity (column e), and for the velocity itself: the cubic through the four
// nearest rows, f⁗(ξ)·(s+1)s(s−1)(s−2)h⁴/4!, at most 0.5625/24·h⁴·max|f⁗| at interior midpoints
// (the largest of the nodal polynomial on [0, 1] is at s = 1/2), 0.9375/24 in the end intervals
// read by one-sided cubics. f⁗ = ω⁴ sin ωt for e, ω⁵ cos ωt for v. The order is checked on the
// interior midpoints, where the error's maximum sits at a fixed phase (at the ends it moves with h,
// and its ratio converges to 16 only as O((ωh)²)).
TEST(TrajectoryInterpolation, FourRowCubicOnOtherColumnsIsFourthOrder) {
  const double omega = 2.0, period = 2 * std::numbers::pi / omega;
  const std::function<double(double)> exact[] = {
      [&](double t) { return omega * std::cos(omega * t); },  // column 2, v
      [&](double t) { return std::sin(omega * t); }};         // column 3, e
  const double fourth_derivative[] = {std::pow(omega, 5), std::pow(omega, 4)};
  double previous[2] = {0, 0};
  for (const long n : {20L, 40L, 80L}) {
    const double h = period / static_cast<double>(n);
    const Trajectory trajectory = Sampled(h, n, omega);
    const TrajectoryInterpolator reader(trajectory);
    for (int k = 0; k < 2; ++k) {
      const std::size_t column = 2 + static_cast<std::size_t>(k);
      EXPECT_EQ(reader.rule(column), InterpolationRule::kCubic);
      double interior = 0;
      for (long i = 1; i + 2 <= n; ++i) {
        const double t = (static_cast<double>(i) + 0.5) * h;
        interior = std::max(interior,
                            std::fabs(reader.ValueAt(column, t, reader.Locate(t)) - exact[k](t)));
      }
      const double scale = fourth_derivative[k] * std::pow(h, 4) / 24;
      EXPECT_LE(interior, 0.5625 * scale * (1 + 1e-6)) << "column " << column << ", n = " << n;
      EXPECT_LE(MidpointError(trajectory, column, exact[k]), 0.9375 * scale * (1 + 1e-6))
          << "column " << column << ", n = " << n;
      if (previous[k] > 0) {
        EXPECT_NEAR(previous[k] / interior, 16.0, 0.5) << "column " << column << ", n = " << n;
      }
      previous[k] = interior;
    }
  }
}

TEST(TrajectoryInterpolation, RecordedTimesAreReadAsWritten) {
  const Trajectory trajectory = Sampled(0.1, 10, 3.0);
  const TrajectoryInterpolator reader(trajectory);
  for (std::size_t r = 0; r < trajectory.rows.size(); ++r) {
    // 10·0.1 is not the double 1.0 exactly: the slack makes it a recorded time all the same.
    const double t = static_cast<double>(r) / 10.0;
    const auto where = reader.Locate(t);
    EXPECT_TRUE(where.exact) << r;
    EXPECT_EQ(where.row, r);
    for (std::size_t c = 1; c < 4; ++c)
      EXPECT_EQ(reader.ValueAt(c, t, where), trajectory.rows[r][c]);  // bit for bit
  }
}

TEST(TrajectoryInterpolation, TimesMustIncrease) {
  Trajectory trajectory = Sampled(0.1, 3, 1.0);
  trajectory.rows[2][0] = trajectory.rows[1][0];
  try {
    const TrajectoryInterpolator reader(trajectory, "ref.csv");
    ADD_FAILURE() << "accepted a repeated time";
  } catch (const TrajectoryFormatError& error) {
    EXPECT_EQ(std::string(error.what()).rfind("ref.csv:4: time 0.1 after 0.1 (expected", 0), 0u)
        << error.what();
  }
}

// A 2-D point whose candidate is the reference displaced by (3, 4)·ε·t: the distance is 5εt at
// every time, so over t = 0, 0.1, …, 1: max 5ε at t = 1, end 5ε, RMS 5ε·sqrt(Σ t_k² / 11) with
// Σ t_k² = 3.85. The reference is recorded at h/8: the compared times are the candidate's, and
// they are rows of the reference (nothing interpolated). The velocities are equal: no error.
TEST(TrajectoryAlignment, ErrorsOverTimeOfAKnownDifference) {
  const double eps = 1e-6;
  const auto make = [&](double h, long n, double scale) {
    Trajectory trajectory;
    trajectory.columns = {"time",        "root/b/p0.x", "root/b/p0.y",
                          "root/b/v0.x", "root/b/v0.y", "total"};
    for (long k = 0; k <= n; ++k) {
      const double t = static_cast<double>(k) * h;
      trajectory.steps.push_back(k);
      trajectory.rows.push_back({t, 1 + t + 3 * scale * t, 2 - t + 4 * scale * t, 1, -1, 7});
    }
    return trajectory;
  };
  const Trajectory reference = make(0.1 / 8, 80, 0);
  const Trajectory candidate = make(0.1, 10, eps);
  const TimeAlignedReport report =
      CompareAtCommonTimes(reference, candidate, Tolerances{.rtol = 0, .atol = 1e-3});
  EXPECT_TRUE(report.match) << FormatTimeAlignedReport(report);
  EXPECT_FALSE(report.on_reference_times);
  EXPECT_EQ(report.compared_times, 11u);
  EXPECT_EQ(report.exact_times, 11u);
  EXPECT_EQ(report.compared_columns, 5u);  // time is the alignment
  ASSERT_EQ(report.errors.size(), 3u);
  const ErrorOverTime& position = report.errors[0];
  EXPECT_EQ(position.object, "root/b");
  EXPECT_EQ(position.quantity, "position");
  EXPECT_NEAR(position.max, 5 * eps, 1e-15);
  EXPECT_NEAR(position.max_time, 1.0, 1e-12);
  EXPECT_NEAR(position.end, 5 * eps, 1e-15);
  EXPECT_NEAR(position.rms, 5 * eps * std::sqrt(3.85 / 11), 1e-15);
  EXPECT_EQ(report.errors[1].quantity, "velocity");
  EXPECT_EQ(report.errors[1].max, 0.0);
  EXPECT_EQ(report.errors[2].object, "total");
  EXPECT_EQ(report.errors[2].quantity, "value");

  // Tight tolerances: the first failure is the first time with a difference, t = 0.1.
  const TimeAlignedReport tight =
      CompareAtCommonTimes(reference, candidate, Tolerances{.rtol = 1e-9, .atol = 1e-12});
  EXPECT_FALSE(tight.match);
  ASSERT_TRUE(tight.first_mismatch);
  EXPECT_NEAR(tight.first_mismatch->time, 0.1, 1e-12);
  EXPECT_EQ(tight.first_mismatch->column, "root/b/p0.x");
  const std::string text = FormatTimeAlignedReport(tight);
  EXPECT_NE(text.find("at the candidate's 11 recorded times"), std::string::npos) << text;
  EXPECT_NE(text.find("nothing interpolated"), std::string::npos) << text;
}

// The reference recorded at h = 0.03, the candidate at 0.1, both on x = sin t to t = 1.2: the
// compared times are the sparser candidate's, the reference is interpolated where it has no row
// (it has rows at t = 0.3, 0.6, …), and since both sample the same curve the positions differ by
// Hermite's error at h = 0.03 at most, h⁴/384.
TEST(TrajectoryAlignment, InterpolatedReferenceErrsByTheInterpolationBoundOnly) {
  const Trajectory reference = Sampled(0.03, 40, 1.0);  // to t = 1.2
  const Trajectory candidate = Sampled(0.1, 12, 1.0);   // to t = 1.2
  const TimeAlignedReport report =
      CompareAtCommonTimes(reference, candidate, Tolerances{.rtol = 0, .atol = 1e-6});
  EXPECT_TRUE(report.match) << FormatTimeAlignedReport(report);
  EXPECT_FALSE(report.on_reference_times);
  EXPECT_EQ(report.hermite_columns, 1u);
  EXPECT_EQ(report.cubic_columns, 2u);
  EXPECT_LT(report.exact_times, report.compared_times);  // t = 0.3, 0.6, 0.9, 1.2 … are shared
  ASSERT_EQ(report.errors.size(), 3u);
  EXPECT_LE(report.errors[0].max, std::pow(0.03, 4) / 384 * (1 + 1e-6));
  EXPECT_GT(report.errors[0].max, 0.0);
}

TEST(TrajectoryAlignment, RunsOverDifferentIntervalsMismatch) {
  const Trajectory reference = Sampled(0.01, 200, 1.0);  // to t = 2
  const Trajectory candidate = Sampled(0.1, 10, 1.0);    // to t = 1
  const TimeAlignedReport report =
      CompareAtCommonTimes(reference, candidate, Tolerances{.rtol = 0, .atol = 1e-3});
  EXPECT_FALSE(report.same_span);
  EXPECT_FALSE(report.match);
  EXPECT_EQ(report.compared_times, 11u);
  EXPECT_NE(FormatTimeAlignedReport(report).find("the runs cover different times"),
            std::string::npos);
}

}  // namespace
}  // namespace fluxion::regress
