#include "runtime/step_clock.h"

#include <cmath>
#include <limits>

namespace fluxion::internal {

namespace {

// Integers up to 2^53 convert to double exactly: the one rounding left is the division.
constexpr std::int64_t kExactInteger = std::int64_t{1} << 53;
// 10^d is exact as a double up to d = 22; 17 significant digits identify every double.
constexpr int kMaxDigits = 17;

// `value` as units of 10^-digits, when that is exact: units / 10^digits gives back `value`.
bool DecimalUnits(double value, double scale, std::int64_t& units) {
  const double scaled = std::round(value * scale);
  if (!(std::abs(scaled) < static_cast<double>(kExactInteger))) return false;
  units = static_cast<std::int64_t>(scaled);
  return static_cast<double>(units) / scale == value;
}

}  // namespace

StepClock::StepClock(double start, double h) : start_(start), h_(h) {
  if (!std::isfinite(start) || !std::isfinite(h)) return;
  // The fewest decimal digits after the point that write both t₀ and h exactly.
  double scale = 1.0;
  for (int digits = 0; digits <= kMaxDigits; ++digits, scale *= 10.0) {
    if (DecimalUnits(start, scale, start_units_) && DecimalUnits(h, scale, step_units_)) {
      decimal_ = true;
      scale_ = scale;
      return;
    }
  }
}

double StepClock::TimeAt(long n) const {
  if (decimal_ && n >= 0 && (step_units_ == 0 || n <= kExactInteger / std::abs(step_units_))) {
    const std::int64_t units = start_units_ + static_cast<std::int64_t>(n) * step_units_;
    if (std::abs(units) < kExactInteger) return static_cast<double>(units) / scale_;
  }
  return start_ + static_cast<double>(n) * h_;
}

}  // namespace fluxion::internal
