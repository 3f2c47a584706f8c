#include "order_fit.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace fluxion::analysis {

namespace {

constexpr double kSignal = kOrderFitSignal;
constexpr double kAgreement = 0.05;

bool Usable(const OrderSample& sample) {
  return std::isfinite(sample.error) && sample.error > 0.0 &&
         sample.error >= kSignal * sample.round_off;
}

double PairOrder(const OrderSample& coarse, const OrderSample& fine) {
  if (!(coarse.error > 0.0) || !(fine.error > 0.0) || !std::isfinite(coarse.error) ||
      !std::isfinite(fine.error))
    return std::numeric_limits<double>::quiet_NaN();
  return std::log(coarse.error / fine.error) / std::log(coarse.h / fine.h);
}

}  // namespace

OrderFit FitOrder(const std::vector<OrderSample>& samples) {
  OrderFit fit;
  for (std::size_t i = 0; i + 1 < samples.size(); ++i)
    fit.pair_orders.push_back(PairOrder(samples[i], samples[i + 1]));

  // The longest run of successive usable samples (>= keeps the finest of equal lengths).
  std::size_t best_first = 0, best_length = 0;
  for (std::size_t i = 0; i < samples.size();) {
    if (!Usable(samples[i])) {
      ++i;
      continue;
    }
    std::size_t j = i;
    while (j + 1 < samples.size() && Usable(samples[j + 1])) ++j;
    if (j - i + 1 >= best_length) best_first = i, best_length = j - i + 1;
    i = j + 1;
  }
  fit.usable = static_cast<std::size_t>(std::count_if(samples.begin(), samples.end(), Usable));
  if (best_length < 2) return fit;
  std::size_t first = best_first;
  std::size_t last = best_first + best_length - 1;

  // Leave out fine samples whose pair falls below the previous one (round-off), then coarse
  // samples whose pair disagrees with the next, finer pair (pre-asymptotic).
  while (last - first >= 2 && fit.pair_orders[last - 2] - fit.pair_orders[last - 1] > kAgreement)
    --last;
  while (last - first >= 2 &&
         std::abs(fit.pair_orders[first] - fit.pair_orders[first + 1]) > kAgreement)
    ++first;

  // Least-squares slope of log e against log h.
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  const double m = static_cast<double>(last - first + 1);
  for (std::size_t i = first; i <= last; ++i) {
    const double x = std::log(samples[i].h), y = std::log(samples[i].error);
    sx += x, sy += y, sxx += x * x, sxy += x * y;
  }
  const double slope = (m * sxy - sx * sy) / (m * sxx - sx * sx);
  fit.first = first;
  fit.last = last;
  if (slope < kMinimumOrder) {
    fit.flat = true;
    fit.slope = slope;
    return fit;
  }
  fit.order = slope;
  return fit;
}

}  // namespace fluxion::analysis
