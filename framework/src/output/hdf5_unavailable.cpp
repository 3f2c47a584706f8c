// The HDF5 trajectory writer of a build without HDF5 (FLUXION_HDF5=OFF, or libhdf5-dev missing):
// the host asks HasHdf5TrajectoryWriter() first; making one anyway is a usage error.
#include "fluxion/errors.h"
#include "fluxion/trajectory_writer.h"

namespace fluxion {

bool HasHdf5TrajectoryWriter() { return false; }

std::unique_ptr<TrajectoryWriter> MakeHdf5TrajectoryWriter(
    const std::string& /*path*/, const Hdf5TrajectoryOptions& /*options*/) {
  throw UsageError("this Fluxion was built without HDF5 (install libhdf5-dev and rebuild)");
}

std::optional<std::string> Hdf5TrajectoryToCsv(const std::string& /*path*/, std::string& why,
                                               std::uint64_t /*memory_limit*/) {
  why = "this Fluxion was built without HDF5 (install libhdf5-dev and rebuild)";
  return std::nullopt;
}

bool WriteXdmfForHdf5Trajectory(const std::string& /*h5_path*/, const std::string& /*h5_name*/,
                                const std::string& /*xdmf_path*/, std::string& why) {
  why = "this Fluxion was built without HDF5";
  return false;
}

bool WriteXdmfForHdf5Trajectory(const std::string& /*h5_path*/, const std::string& /*h5_name*/,
                                const OutputClaim& /*xdmf*/, std::string& why) {
  why = "this Fluxion was built without HDF5";
  return false;
}

}  // namespace fluxion
