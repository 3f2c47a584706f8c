// The regression manifest: a JSON file listing the cases of a suite (docs/regression-testing.md).
//
//   {
//     "root": "../..",                          scene paths are relative to this folder (itself
//                                               relative to the manifest; default: the manifest's)
//     "defaults": {"rtol": 1e-9, "atol": 1e-12, "every": 1},     optional, for every case
//     "cases": [
//       {"name": "sofa_spring_test",            unique, [A-Za-z0-9_.-]+ (also the CTest name)
//        "scene": "scenes/sofa_spring_test.scn",
//        "steps": 100,                          or "end_time": 10.0 (exactly one of them)
//        "every": 1,                            record every K steps (reference ≤ ~200 rows)
//        "dt": 0.01, "energy": true,            optional: --dt, --energy for scene-runner
//        "solver": "EulerImplicitSolver",       optional: --solver NAME for scene-runner
//        "params": {"rayleighMass": 0.1},       optional with solver: --param key=value …
//        "rtol": 1e-9, "atol": 1e-12,           optional, override the defaults
//        "reference": "references/x.csv",       relative to the manifest (default
//                                               references/<name>.csv)
//        "description": "…"}                    optional, free text
//     ]
//   }
// Unknown keys are errors (a misspelt "rtol" must not silently fall back to the default).
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "trajectory_compare.h"

namespace fluxion::regress {

/// Thrown for an unreadable or invalid manifest; the message names the file and the case.
class ManifestError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// One case of the suite, with every path resolved to an absolute one.
struct RegressionCase {
  std::string name;
  std::filesystem::path scene;   ///< absolute
  std::string scene_as_written;  ///< as in the manifest, for reports
  std::optional<long> steps;     ///< exactly one of steps and end_time
  std::optional<double> end_time;
  long every = 1;
  std::optional<double> dt;
  bool energy = false;
  std::optional<std::string> solver;
  std::vector<std::pair<std::string, std::string>> params;  ///< key=value, sorted by key
  Tolerances tolerances;
  std::filesystem::path reference;  ///< absolute
  std::string reference_as_written;
  std::string description;

  /// The scene-runner arguments after the executable, except --output and --plugin-dir.
  std::vector<std::string> RunnerArguments() const;
};

struct Manifest {
  std::filesystem::path path;  ///< absolute
  std::filesystem::path root;  ///< absolute; scene paths are relative to it
  std::vector<RegressionCase> cases;
};

/// Reads and validates a manifest. Throws ManifestError.
Manifest LoadManifest(const std::filesystem::path& path);

}  // namespace fluxion::regress
