// The observed order of a sequence of runs at halving step sizes, fitted over the range where
// the errors behave asymptotically (e ≈ C·h^p): neither the coarse runs whose h is too large for
// the leading error term to dominate, nor the fine runs whose error is round-off.
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

namespace fluxion::analysis {

/// A run is usable for a fit when its error is at least this many times its round-off.
inline constexpr double kOrderFitSignal = 10.0;
/// A fitted slope below this is no order: the errors do not fall with the step size.
inline constexpr double kMinimumOrder = 0.5;

/// One run: its step size, its error, and the error round-off alone could make in it.
struct OrderSample {
  double h = 0.0;
  double error = 0.0;
  double round_off = 0.0;
};

struct OrderFit {
  /// log2(e_i / e_{i+1}) / log2(h_i / h_{i+1}) for each pair of successive samples (NaN where an
  /// error is not positive and finite).
  std::vector<double> pair_orders;
  /// The least-squares slope of log e against log h over samples [first, last]; nullopt when no
  /// two successive samples stand above round-off.
  std::optional<double> order;
  std::size_t first = 0, last = 0;
  /// Samples whose error stands above round-off (step 1), when no order could be fitted: 0 means
  /// every error is at round-off (or not finite).
  std::size_t usable = 0;
  /// Step 6 refused the fit: the errors over [first, last] do not fall with h (slope `slope`).
  bool flat = false;
  double slope = 0.0;
};

/// Fits the order over the asymptotic range of `samples` (ordered from the largest h):
///  1. a sample is usable when its error is finite and at least kSignal = 10 times its round-off;
///  2. the longest run of successive usable samples is kept (the finest of equally long ones);
///  3. while it has three samples or more and its finest pair's order is lower than the previous
///     pair's by more than kAgreement = 0.05, the finest sample is dropped (round-off flattens the
///     error curve before it reaches the floor of step 1);
///  4. while it has three samples or more and its coarsest pair's order differs from the next
///     pair's by more than kAgreement, the coarsest sample is dropped (pre-asymptotic: the next
///     term of the error expansion still shows);
///  5. the order is the least-squares slope of log e against log h over what is left;
///  6. a slope below kMinimumOrder = 0.5 is no order (`flat`): the errors do not fall with h, so
///     they are a floor the round-off estimate of step 1 missed (the reference's own round-off
///     adding up over 10⁵ steps, e.g. RK4 on a constant force, which it integrates exactly), not
///     the method's error. Every consistent method has order ≥ 1.
/// A round-off-limited pair is never reported: it is left out in step 1, 3 or 6.
OrderFit FitOrder(const std::vector<OrderSample>& samples);

}  // namespace fluxion::analysis
