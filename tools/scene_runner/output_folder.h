// A folder of numbered files scene-runner writes (--vtk, --render-every). Like every file a run
// writes for the scene, they stay below the output folder (--output-dir, default the current
// folder; fluxion/output_files.h): the folder, relative to the working folder like every path of
// the command line, must lie in the output folder, and is created when missing (only the last
// component: its parent must exist).
#pragma once

#include <string>

namespace fluxion::runner {

/// Sets `relative` to `folder` relative to `output_dir` (what OpenSceneOutputFile takes),
/// creating the folder when it does not exist. False with `why` ("what is wrong (what was
/// expected)") when it is, or resolves through a link to, a place outside the output folder, or
/// cannot be created.
bool PrepareOutputFolder(const std::string& folder, const std::string& output_dir,
                         std::string& relative, std::string& why);

}  // namespace fluxion::runner
