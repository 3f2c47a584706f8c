# CPack: a Debian package built from the same install rules as `cmake --install`.
#
#   cmake -S . -B build-deb -DCMAKE_INSTALL_PREFIX=/usr -DCMAKE_BUILD_TYPE=Release
#   cmake --build build-deb && (cd build-deb && cpack -G DEB)       # or: tools/fluxion package
#
# The package installs into the prefix the build was configured for (CPACK_PACKAGING_INSTALL_PREFIX
# below), because that prefix decides GNUInstallDirs' libdir (lib/x86_64-linux-gnu for /usr on
# Debian) and with it the RPATH of the executables and the bundled plugin folder. Configure with
# -DCMAKE_INSTALL_PREFIX=/usr for a package whose scene-runner is /usr/bin/scene-runner.
#
# One package, `fluxion`, holds the runtime (libfluxion, scene-runner, the bundled plugins, the
# gallery, the Python module in /usr/lib/python3/dist-packages/fluxion) and the plugin SDK (headers, CMake package): writing a solver is what Fluxion is for, so
# installing Fluxion must be enough to build one. Its dependencies:
#   - the shared libraries libfluxion links privately (libtinyxml2-9, zlib1g, libspdlog1.10,
#     libfmt9) and the C/C++ runtime: computed by dpkg-shlibdeps from the binaries when it is available, otherwise the
#     Debian 12 names listed below;
#   - libeigen3-dev: the public headers include Eigen, and FluxionConfig.cmake finds it. It is
#     header-only and architecture-independent (9 MB, depends only on pkg-config), a small price for
#     an SDK that works out of the box;
#   - suggested, not required: cmake and g++ to build plugins (a user who only runs scenes does not
#     need a compiler).
set(CPACK_PACKAGE_NAME fluxion)
set(CPACK_PACKAGE_VENDOR "Fluxion developers")
set(CPACK_PACKAGE_CONTACT "Fluxion developers <fluxion@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_PACKAGING_INSTALL_PREFIX "${CMAKE_INSTALL_PREFIX}")
set(CPACK_STRIP_FILES ON)
set(CPACK_GENERATOR DEB)
set(CPACK_SOURCE_GENERATOR "")

set(CPACK_DEBIAN_PACKAGE_NAME fluxion)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)  # fluxion_<version>_<arch>.deb
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION
    "Mass-spring simulation with run-time ODE solver plugins\n"
    "Fluxion runs SOFA-style XML mass-spring scenes (scene-runner) with ODE solvers loaded at run\n"
    "time from plugins. This package also holds the plugin SDK: headers and a CMake package\n"
    "(find_package(Fluxion)) to build new solver plugins out of tree.")
string(REPLACE ";" "" CPACK_DEBIAN_PACKAGE_DESCRIPTION "${CPACK_DEBIAN_PACKAGE_DESCRIPTION}")
find_program(FLUXION_DPKG_SHLIBDEPS dpkg-shlibdeps)
mark_as_advanced(FLUXION_DPKG_SHLIBDEPS)
if(FLUXION_DPKG_SHLIBDEPS)
  set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
  # The executables and plugins need libfluxion, which is in this package, not on the system.
  set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS_PRIVATE_DIRS "${PROJECT_BINARY_DIR}/${CMAKE_INSTALL_LIBDIR}")
  set(CPACK_DEBIAN_PACKAGE_DEPENDS "libeigen3-dev (>= 3.4)")
else()
  set(CPACK_DEBIAN_PACKAGE_DEPENDS
      "libtinyxml2-9, zlib1g, libhdf5-103-1, libdeflate0, libspdlog1.10, libfmt9, libcholmod3, libsuitesparseconfig5, libstdc++6 (>= 12), libc6, libgcc-s1, libeigen3-dev (>= 3.4)")
endif()
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "cmake (>= 3.20), g++")
# SparseLDLSolver's CHOLMOD runs its dense kernels on whichever libblas.so.3 the system selects;
# the pthread OpenBLAS is several times faster than the reference BLAS and thread-safe, so the
# factorisation's two halves run on two cores (Fluxion sets it to one thread of its own: results
# do not depend on a thread count; docs/performance.md "Direct solver").
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "libopenblas0-pthread")
# The Python module (FLUXION_PYTHON) is built for one Python minor version (its file name carries
# that ABI: _fluxion.cpython-311-…) and hands out NumPy arrays: it needs that python3 and
# python3-numpy, as dh_python3 would declare. It does not link libpython, so dpkg-shlibdeps does
# not see this. Matplotlib is only for examples/python/.
if(FLUXION_PYTHON)
  math(EXPR fluxion_python_next_minor "${Python3_VERSION_MINOR} + 1")
  string(APPEND CPACK_DEBIAN_PACKAGE_DEPENDS
         ", python3 (>= ${Python3_VERSION_MAJOR}.${Python3_VERSION_MINOR})"
         ", python3 (<< ${Python3_VERSION_MAJOR}.${fluxion_python_next_minor}), python3-numpy")
  string(APPEND CPACK_DEBIAN_PACKAGE_SUGGESTS ", python3-matplotlib")
endif()
# libfluxion is a public shared library: declare it (shlibs) and run ldconfig on (un)install.
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS ON)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS_POLICY ">=")

include(CPack)
