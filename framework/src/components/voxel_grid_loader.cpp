#include "components/voxel_grid_loader.h"
#include "components/point_selection.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace fluxion::internal {

ComponentSpec VoxelGridLoaderComponent::Spec() {
  return ComponentSpec{
      .name = "VoxelGridLoader",
      .kind = ComponentKind::kEngine,
      .summary = "Hexahedra from the active voxels of a raw 8-bit image",
      .fields =
          {FieldSpec::Text("filename", "",
                           "the .raw image: found next to the scene, then in the data folders "
                           "(README, 'Files and safety')")
               .Alias("segmentationFile"),
           FieldSpec::RealList("voxelSize", "size of one voxel along x, y, z [m]")
               .DefaultText("1 1 1"),
           FieldSpec::IndexList("resolution", "voxels along x, y, z in the file")
               .DefaultText("0 0 0"),
           FieldSpec::RealList("ROI",
                               "region of interest, voxel indices xmin ymin zmin xmax ymax zmax "
                               "(clamped to the image)")
               .DefaultText("0 0 0 65535 65535 65535"),
           FieldSpec::Integer("header", 0, "bytes to skip at the start of the file").AtLeast(0),
           FieldSpec::Integer("segmentationHeader", 0, "accepted; unused, as in SOFA").AtLeast(0),
           FieldSpec::IndexList("bgValue", "voxel values that are background (inactive)"),
           FieldSpec::IndexList("dataValue",
                                "voxel values that are active (when given, bgValue is unused)"),
           FieldSpec::Bool("generateHexa", true,
                           "hexahedra from the voxels (0: one point per active voxel)")},
      .aliases = {}};
}

namespace {

// SOFA's VoxelGridLoader::init: the ROI clamped to the image, each maximum at least its minimum.
bool ClampedRoi(BuildContext& context, const std::array<Index, 3>& n, std::array<Index, 6>& roi) {
  const std::vector<double>& given = context.parameters().reals("ROI");
  if (given.size() != 6) {
    context.Error("VoxelGridLoader 'ROI' needs 6 numbers (xmin ymin zmin xmax ymax zmax)");
    return false;
  }
  for (std::size_t c = 0; c < 6; ++c) {
    if (given[c] != std::floor(given[c]) || std::abs(given[c]) > 1e9) {
      context.Error("VoxelGridLoader 'ROI' holds " + std::to_string(given[c]) +
                    " (expected whole voxel indices)");
      return false;
    }
    roi[c] = static_cast<Index>(given[c]);
  }
  for (int a = 0; a < 3; ++a) {
    roi[a] = std::max<Index>(roi[a], 0);
    roi[a + 3] = std::min(roi[a + 3], n[a] - 1);
    roi[a + 3] = std::max(roi[a + 3], roi[a]);
  }
  // A minimum beyond the image (SOFA would read past it): an error.
  for (int a = 0; a < 3; ++a)
    if (roi[a] >= n[a]) {
      context.Error("VoxelGridLoader 'ROI' starts at voxel " + std::to_string(roi[a]) +
                    " along axis " + std::to_string(a) + " (expected less than the resolution " +
                    std::to_string(n[a]) + ")");
      return false;
    }
  return true;
}

}  // namespace

void VoxelGridLoaderComponent::Build(BuildContext& context) {
  const Parameters& p = context.parameters();
  const std::string& name = p.text("filename");
  if (name.size() <= 4 || !name.ends_with(".raw")) {
    context.Error("VoxelGridLoader 'filename' is '" + name +
                  "' (expected a .raw file, as SOFA's VoxelGridLoader requires)");
    return;
  }
  const std::vector<Index>& resolution = p.indices("resolution");
  if (resolution.size() != 3 || std::ranges::find(resolution, 0) != resolution.end()) {
    context.Error("VoxelGridLoader 'resolution' needs 3 numbers of at least 1 (nx ny nz)");
    return;
  }
  const std::vector<double>& size = p.reals("voxelSize");
  if (size.size() != 3) {
    context.Error("VoxelGridLoader 'voxelSize' needs 3 numbers (x y z)");
    return;
  }
  const std::array<Index, 3> n{resolution[0], resolution[1], resolution[2]};
  const std::optional<BuildContext::InputFile> file = context.ReadInputFile(name);
  if (!file) return;
  // The file holds `header` bytes, then one byte per voxel (later bytes are ignored, as SOFA's
  // ImageRAW reads no further). Divisions first: the product of a lying resolution may overflow.
  const std::size_t header = static_cast<std::size_t>(p.integer("header"));
  const std::size_t available = file->bytes.size() - std::min(header, file->bytes.size());
  const std::size_t nx = static_cast<std::size_t>(n[0]), ny = static_cast<std::size_t>(n[1]),
                    nz = static_cast<std::size_t>(n[2]);
  if (header > file->bytes.size() || nx > available || ny > available / nx ||
      nz > available / (nx * ny)) {
    context.Error("VoxelGridLoader: " + file->path + " has " + std::to_string(file->bytes.size()) +
                  " bytes (expected at least header " + std::to_string(header) + " + " +
                  std::to_string(n[0]) + "×" + std::to_string(n[1]) + "×" + std::to_string(n[2]) +
                  " voxels of one byte)");
    return;
  }
  std::array<Index, 6> roi{};
  if (!ClampedRoi(context, n, roi)) return;
  const auto voxel = [&](Index i, Index j, Index k) { return i + n[0] * (j + n[1] * k); };
  const std::vector<Index>& data_values = p.indices("dataValue");
  const std::vector<Index>& background = p.indices("bgValue");
  const auto active = [&](Index index) {
    const Index value = static_cast<unsigned char>(file->bytes[header + std::size_t(index)]);
    if (!data_values.empty()) return std::ranges::find(data_values, value) != data_values.end();
    if (!background.empty()) return std::ranges::find(background, value) == background.end();
    return true;
  };
  // Points are counted before anything is allocated for them: a sparse file of a few bytes on
  // disk may hold millions of active voxels.
  const Index max_points = context.max_scene_points() - context.topology_points();
  const auto too_many = [&](Index points) {
    if (points <= max_points) return false;
    context.Error("VoxelGridLoader makes " + std::to_string(points) + " points (expected " +
                  PointLimitText(context, context.max_scene_points()) + ")");
    return true;
  };
  const auto for_each_active = [&](auto use) {
    for (Index k = roi[2]; k <= roi[5]; ++k)
      for (Index j = roi[1]; j <= roi[4]; ++j)
        for (Index i = roi[0]; i <= roi[3]; ++i)
          if (active(voxel(i, j, k))) use(i, j, k);
  };
  std::vector<double> position;
  std::vector<Index> hexahedra, voxels;
  const std::array<double, 3> s{size[0], size[1], size[2]};
  const auto add_point = [&](Index i, Index j, Index k) {
    position.insert(position.end(), {static_cast<double>(i) * s[0], static_cast<double>(j) * s[1],
                                     static_cast<double>(k) * s[2]});
  };
  if (!p.flag("generateHexa")) {
    Index actives = 0;
    for_each_active([&](Index, Index, Index) { ++actives; });
    if (too_many(actives)) return;
    position.reserve(3 * static_cast<std::size_t>(actives));
    voxels.reserve(static_cast<std::size_t>(actives));
    for_each_active([&](Index i, Index j, Index k) {
      add_point(i, j, k);
      voxels.push_back(voxel(i, j, k));
    });
  } else {
    // The grid points of the ROI's box, (mx+1)·(my+1)·(mz+1) of them: mark those the active
    // voxels use (one bit each: the box is at most 8 bits per byte of the file), count them, and
    // only then number them in k, j, i order (i fastest), as SOFA does. That order is the
    // corners' index order, so a corner's number is its rank among the used ones.
    const Index mx = roi[3] - roi[0] + 2, my = roi[4] - roi[1] + 2, mz = roi[5] - roi[2] + 2;
    const auto corner = [&](Index i, Index j, Index k) {
      return (i - roi[0]) + mx * ((j - roi[1]) + my * (k - roi[2]));
    };
    std::vector<bool> used(static_cast<std::size_t>(mx * my * mz), false);
    for_each_active([&](Index i, Index j, Index k) {
      for (int q = 0; q < 8; ++q)
        used[static_cast<std::size_t>(corner(i + (q & 1), j + ((q >> 1) & 1), k + (q >> 2)))] =
            true;
    });
    const Index points = static_cast<Index>(std::ranges::count(used, true));
    if (too_many(points)) return;
    std::vector<Index> corners;  // the used corners, ascending
    corners.reserve(static_cast<std::size_t>(points));
    position.reserve(3 * static_cast<std::size_t>(points));
    for (Index k = roi[2]; k <= roi[5] + 1; ++k)
      for (Index j = roi[1]; j <= roi[4] + 1; ++j)
        for (Index i = roi[0]; i <= roi[3] + 1; ++i)
          if (used[static_cast<std::size_t>(corner(i, j, k))]) {
            corners.push_back(corner(i, j, k));
            add_point(i, j, k);
          }
    for_each_active([&](Index i, Index j, Index k) {
      const auto at = [&](Index di, Index dj, Index dk) {
        return static_cast<Index>(
            std::ranges::lower_bound(corners, corner(i + di, j + dj, k + dk)) - corners.begin());
      };
      hexahedra.insert(hexahedra.end(), {at(0, 0, 0), at(1, 0, 0), at(1, 1, 0), at(0, 1, 0),
                                         at(0, 0, 1), at(1, 0, 1), at(1, 1, 1), at(0, 1, 1)});
      voxels.push_back(voxel(i, j, k));
    });
  }
  context.SetOutput("position", std::move(position));
  context.SetOutput("hexahedra", std::move(hexahedra));
  context.SetOutput("idxInRegularGrid", std::move(voxels));
}

}  // namespace fluxion::internal
