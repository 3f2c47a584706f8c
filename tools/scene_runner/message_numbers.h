// Numbers as scene-runner's advice prints them: three significant digits for what was measured,
// two, rounded towards the safe side, for a value to type (a dt, a damping parameter).
#pragma once

#include <string>

namespace fluxion::runner {

/// `value` with three significant digits ("4.75e+03").
std::string ShortNumber(double value);

/// `value` (> 0) rounded down to `digits` significant digits (0.006372, 2 → 0.0063), exactly
/// as written: 0.00047, not 0.00047000000000000004.
double RoundDown(double value, int digits);

/// `value` (> 0) rounded up to `digits` significant digits (0.006312, 2 → 0.0064).
double RoundUp(double value, int digits);

}  // namespace fluxion::runner
