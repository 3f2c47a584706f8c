// The times a user reads: t_n = t₀ + n·h, never a running sum.
#pragma once

#include <cstdint>

namespace fluxion::internal {

/// The time after n steps of h from t₀, as the user wrote them: t_n = t₀ + n·h, computed afresh
/// for each n so that no round-off accumulates (`--end-time 2` with dt = 0.01 ends at 2, not at
/// 2.0000000000000013, the sum of 200 additions of 0.01).
///
/// h and t₀ are read as their shortest decimals (0.1, not the double's 0.1000000000000000055…):
/// when both are d-digit decimals p/10^d and t₀·10^d + n·p is an exact integer, t_n is that
/// integer divided by 10^d, the double nearest the decimal t₀ + n·h (3 × 0.1 gives 0.3, where
/// the double product gives 0.30000000000000004). Otherwise — no decimal of at most 17 digits
/// after the point writes t₀ and h, or t₀·10^d + n·p passes 2^53 (h = 1/3 is 0.3333333333333333:
/// after three steps) — it is the double expression t₀ + n·h, within an ulp or two.
///
/// SOFA advances its node's time by accumulation (DefaultAnimationLoop: setTime(startTime + dt));
/// the mechanics keep that sum (see Simulation::sofa_time). This clock is for what is printed.
class StepClock {
 public:
  StepClock() = default;
  StepClock(double start, double h);

  /// t₀ + n·h for n ≥ 0.
  double TimeAt(long n) const;

 private:
  double start_ = 0.0, h_ = 0.0;
  bool decimal_ = false;          ///< start_ and h_ are both p/10^d with |p| < 2^53
  std::int64_t start_units_ = 0;  ///< t₀·10^d
  std::int64_t step_units_ = 0;   ///< h·10^d
  double scale_ = 1.0;            ///< 10^d
};

}  // namespace fluxion::internal
