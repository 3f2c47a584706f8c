// A JUnit XML report of a regression run, for CI systems (one <testcase> per manifest case).
#pragma once

#include <string>
#include <vector>

#include "manifest.h"
#include "suite.h"

namespace fluxion::regress {

/// The report as text: <testsuites><testsuite name=SUITE> with one <testcase> per result, a
/// <failure> for a mismatch or a missing reference, an <error> when scene-runner failed, and
/// <skipped> for skipped cases. `cases[i]` is the case of `results[i]`.
std::string JUnitXml(const std::string& suite, const std::vector<const RegressionCase*>& cases,
                     const std::vector<CaseResult>& results);

}  // namespace fluxion::regress
