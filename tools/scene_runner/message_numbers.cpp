#include "message_numbers.h"

#include <cmath>
#include <cstdio>

namespace fluxion::runner {
namespace {

// `value` rounded to `digits` significant digits by `round` (std::floor or std::ceil). Below 1
// the digits are divided by a power of ten rather than multiplied by its inverse, which is not
// exact (47·1e-5 is 0.00047000000000000004).
template <class Round>
double RoundDigits(double value, int digits, Round round) {
  const double exponent = std::floor(std::log10(value)) - (digits - 1);
  if (exponent >= 0.0) {
    const double unit = std::pow(10.0, exponent);
    return round(value / unit) * unit;
  }
  const double scale = std::pow(10.0, -exponent);
  return round(value * scale) / scale;
}

}  // namespace

std::string ShortNumber(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", value);
  return text;
}

double RoundDown(double value, int digits) {
  return RoundDigits(value, digits, [](double x) { return std::floor(x); });
}

double RoundUp(double value, int digits) {
  return RoundDigits(value, digits, [](double x) { return std::ceil(x); });
}

}  // namespace fluxion::runner
