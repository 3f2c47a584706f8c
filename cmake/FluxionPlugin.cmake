# fluxion_add_plugin(<name> SOURCES <file>... [LIBRARIES <target>...])
#
# Builds the solver plugin library fluxion_<name>.so (a MODULE: loaded at run time, never linked)
# against Fluxion's plugin SDK, in C++20 with hidden visibility and the project's warnings. The
# same function is used in-tree and by out-of-tree plugins (through find_package(Fluxion), which
# installs this file). Nothing else is needed: the plugin's entry point (FLUXION_PLUGIN in
# <fluxion/plugin.h>) stamps it with the ABI version of the headers it was compiled against.
# Out of tree the library is written to the current binary folder; copy it into a folder on the
# plugin search path (or pass that folder to scene-runner --plugin-dir).
function(fluxion_add_plugin name)
  cmake_parse_arguments(ARG "" "" "SOURCES;LIBRARIES" ${ARGN})
  if(NOT ARG_SOURCES)
    message(FATAL_ERROR "fluxion_add_plugin(${name}): SOURCES is required")
  endif()
  set(target fluxion_${name})
  add_library(${target} MODULE ${ARG_SOURCES})
  target_link_libraries(${target} PRIVATE Fluxion::plugin_sdk ${ARG_LIBRARIES})
  target_compile_features(${target} PRIVATE cxx_std_20)
  set_target_properties(${target} PROPERTIES
    PREFIX ""
    OUTPUT_NAME "fluxion_${name}"
    CXX_VISIBILITY_PRESET hidden
    VISIBILITY_INLINES_HIDDEN ON)
  if(COMMAND fluxion_set_warnings)
    fluxion_set_warnings(${target})
  endif()
  if(DEFINED FLUXION_PLUGIN_OUTPUT_DIRECTORY)
    set_target_properties(${target} PROPERTIES LIBRARY_OUTPUT_DIRECTORY "${FLUXION_PLUGIN_OUTPUT_DIRECTORY}")
  endif()
  if(DEFINED FLUXION_PLUGIN_SUBDIR AND FLUXION_INSTALL_PLUGINS)
    install(TARGETS ${target} LIBRARY DESTINATION "${FLUXION_PLUGIN_SUBDIR}" COMPONENT runtime)
    # In-tree: a bundled plugin, built by the fluxion_run target (tools/fluxion run).
    set_property(GLOBAL APPEND PROPERTY FLUXION_BUNDLED_PLUGINS ${target})
  endif()
endfunction()
