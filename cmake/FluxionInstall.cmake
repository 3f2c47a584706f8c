# Install rules and the CMake package (find_package(Fluxion)), included once from the top level
# after every target exists. The installed tree mirrors the build tree:
#
#   <prefix>/bin/scene-runner                       RPATH $ORIGIN/../<libdir>
#   <prefix>/<libdir>/libfluxion.so.<ABI>           the framework (SONAME libfluxion.so.<ABI>)
#   <prefix>/<libdir>/fluxion/plugins/fluxion_*.so  the bundled solvers, found next to libfluxion
#   <prefix>/<libdir>/cmake/Fluxion/                FluxionConfig.cmake and friends
#   <prefix>/include/fluxion/*.h                    the public plugin API, version.h, export.h
#   <prefix>/share/fluxion/scenes/                  the gallery (data a user runs: not under doc/)
#   <prefix>/bin/fluxion-view, share/fluxion/view/  the live viewer and its page with three.js
#                                                   (tools/fluxion_view/CMakeLists.txt)
#   <prefix>/<python dir>/fluxion/                  the Python package (python/CMakeLists.txt;
#                                                   FLUXION_PYTHON_INSTALL_DIR), RPATH to <libdir>
#   <prefix>/share/doc/fluxion/                     README.md, docs/, plugins/*/README.md, examples/
#
# Every destination is relative, so the tree can be moved (the package computes its prefix from
# its own location, executables find libfluxion through $ORIGIN, libfluxion finds its plugins
# next to itself).
include(CMakePackageConfigHelpers)

set(FLUXION_INSTALL_CMAKEDIR "${CMAKE_INSTALL_LIBDIR}/cmake/Fluxion")
set(FLUXION_INSTALL_DATADIR "${CMAKE_INSTALL_DATAROOTDIR}/fluxion")
# GNUInstallDirs' DOCDIR would be share/doc/Fluxion (the project name); Debian wants the package's.
set(FLUXION_INSTALL_DOCDIR "${CMAKE_INSTALL_DATAROOTDIR}/doc/fluxion")

# The framework library and the plugin SDK target, exported as Fluxion::framework and
# Fluxion::plugin_sdk. tinyxml2, zlib, spdlog and Boost.DLL are private to libfluxion and do not
# appear in the exported interface; Eigen (used by the public headers) does.
set_target_properties(fluxion_framework PROPERTIES EXPORT_NAME framework)
set_target_properties(fluxion_plugin_sdk PROPERTIES EXPORT_NAME plugin_sdk)
install(TARGETS fluxion_framework fluxion_plugin_sdk
  EXPORT FluxionTargets
  LIBRARY DESTINATION "${CMAKE_INSTALL_LIBDIR}" COMPONENT runtime NAMELINK_COMPONENT development)
install(EXPORT FluxionTargets
  NAMESPACE Fluxion::
  DESTINATION "${FLUXION_INSTALL_CMAKEDIR}"
  COMPONENT development)

# Public headers only: framework/include/fluxion plus the two generated ones. Internal headers
# live under framework/src and are never installed.
install(DIRECTORY "${PROJECT_SOURCE_DIR}/framework/include/fluxion"
  DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}"
  COMPONENT development
  FILES_MATCHING PATTERN "*.h")
install(FILES "${PROJECT_BINARY_DIR}/framework/include/fluxion/version.h"
              "${PROJECT_BINARY_DIR}/framework/include/fluxion/export.h"
  DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}/fluxion"
  COMPONENT development)

# The package. SameMinorVersion: while Fluxion is 0.y, a minor release may change the public API
# (semantic versioning's rule for 0.y), so find_package(Fluxion 0.5) accepts 0.5.z only. At 1.0
# this becomes SameMajorVersion. Binary compatibility of plugins is a separate, run-time check:
# the ABI version in version.h, stamped into every plugin and compared when it is loaded.
configure_package_config_file("${PROJECT_SOURCE_DIR}/cmake/FluxionConfig.cmake.in"
  "${PROJECT_BINARY_DIR}/package/FluxionConfig.cmake"
  INSTALL_DESTINATION "${FLUXION_INSTALL_CMAKEDIR}"
  PATH_VARS CMAKE_INSTALL_INCLUDEDIR CMAKE_INSTALL_BINDIR FLUXION_PLUGIN_SUBDIR
            FLUXION_INSTALL_DATADIR)
write_basic_package_version_file("${PROJECT_BINARY_DIR}/package/FluxionConfigVersion.cmake"
  VERSION "${PROJECT_VERSION}"
  COMPATIBILITY SameMinorVersion)
install(FILES "${PROJECT_BINARY_DIR}/package/FluxionConfig.cmake"
              "${PROJECT_BINARY_DIR}/package/FluxionConfigVersion.cmake"
              "${PROJECT_SOURCE_DIR}/cmake/FluxionPlugin.cmake"
              "${PROJECT_SOURCE_DIR}/cmake/FluxionWarnings.cmake"
  DESTINATION "${FLUXION_INSTALL_CMAKEDIR}"
  COMPONENT development)

# scene-runner and fluxion-analyze install themselves (tools/<tool>/CMakeLists.txt); the benchmark
# program has no rule of its own and is installed when it is built (FLUXION_BUILD_BENCHMARKS).
if(TARGET fluxion-benchmark)
  install(TARGETS fluxion-benchmark RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}" COMPONENT runtime)
endif()

# The gallery, the documentation and the out-of-tree plugin example.
install(DIRECTORY "${PROJECT_SOURCE_DIR}/scenes/"
  DESTINATION "${FLUXION_INSTALL_DATADIR}/scenes"
  COMPONENT runtime)
install(FILES "${PROJECT_SOURCE_DIR}/README.md"
  DESTINATION "${FLUXION_INSTALL_DOCDIR}"
  COMPONENT documentation)
install(DIRECTORY "${PROJECT_SOURCE_DIR}/docs/"
  DESTINATION "${FLUXION_INSTALL_DOCDIR}/docs"
  COMPONENT documentation)
file(GLOB plugin_readmes RELATIVE "${PROJECT_SOURCE_DIR}" CONFIGURE_DEPENDS
     "${PROJECT_SOURCE_DIR}/plugins/*/README.md")
foreach(readme IN LISTS plugin_readmes)
  get_filename_component(folder "${readme}" DIRECTORY)
  install(FILES "${PROJECT_SOURCE_DIR}/${readme}"
    DESTINATION "${FLUXION_INSTALL_DOCDIR}/${folder}"
    COMPONENT documentation)
endforeach()
install(DIRECTORY "${PROJECT_SOURCE_DIR}/examples/"
  DESTINATION "${FLUXION_INSTALL_DOCDIR}/examples"
  COMPONENT documentation
  PATTERN "build*" EXCLUDE)
