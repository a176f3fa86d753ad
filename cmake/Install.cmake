# Install.cmake - `cmake --install`: header, shared + static library, the CMake
# package (find_package(tensormove CONFIG)), tensormove.pc, tmv-demo, tmv-verify and tmv-check-kernels.
option(TENSORMOVE_INSTALL "Generate the install rules" ${PROJECT_IS_TOP_LEVEL})
if(NOT TENSORMOVE_INSTALL)
  return()
endif()

include(CMakePackageConfigHelpers)

# The package version, the .pc version and the SONAME come from project();
# tmv_version() comes from the header. Refuse to configure if they drift.
file(STRINGS "${PROJECT_SOURCE_DIR}/include/tensormove.h" _tmv_version_lines
     REGEX "^#define TMV_VERSION_(MAJOR|MINOR|PATCH) +[0-9]+")
foreach(_part MAJOR MINOR PATCH)
  string(REGEX REPLACE ".*TMV_VERSION_${_part} +([0-9]+).*" "\\1" _tmv_${_part} "${_tmv_version_lines}")
endforeach()
if(NOT "${_tmv_MAJOR}.${_tmv_MINOR}.${_tmv_PATCH}" STREQUAL PROJECT_VERSION)
  message(FATAL_ERROR "include/tensormove.h says version ${_tmv_MAJOR}.${_tmv_MINOR}.${_tmv_PATCH} "
                      "but project() says ${PROJECT_VERSION}; make them agree")
endif()

set(TENSORMOVE_CMAKE_DIR "${CMAKE_INSTALL_LIBDIR}/cmake/tensormove")

install(FILES "${PROJECT_SOURCE_DIR}/include/tensormove.h" DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}"
        COMPONENT development)

# Two export sets, so a consumer of the shared library never needs
# cpu_features or Threads: the config file loads the static one only when asked.
install(TARGETS tensormove EXPORT tensormove-shared-targets
  LIBRARY DESTINATION "${CMAKE_INSTALL_LIBDIR}" COMPONENT runtime NAMELINK_COMPONENT development
  RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}" COMPONENT runtime)
install(TARGETS tensormove_static EXPORT tensormove-static-targets
  ARCHIVE DESTINATION "${CMAKE_INSTALL_LIBDIR}" COMPONENT development)
foreach(_set shared static)
  install(EXPORT tensormove-${_set}-targets NAMESPACE tensormove::
          DESTINATION "${TENSORMOVE_CMAKE_DIR}" COMPONENT development)
endforeach()

configure_package_config_file(cmake/tensormove-config.cmake.in
  "${PROJECT_BINARY_DIR}/tensormove-config.cmake"
  INSTALL_DESTINATION "${TENSORMOVE_CMAKE_DIR}")
write_basic_package_version_file("${PROJECT_BINARY_DIR}/tensormove-config-version.cmake"
  COMPATIBILITY SameMajorVersion)
install(FILES "${PROJECT_BINARY_DIR}/tensormove-config.cmake"
              "${PROJECT_BINARY_DIR}/tensormove-config-version.cmake"
        DESTINATION "${TENSORMOVE_CMAKE_DIR}" COMPONENT development)

# pkg-config. The file is written at install time so that prefix= is the
# prefix actually installed to (cmake --install --prefix ...); libdir and
# includedir are relative to it unless GNUInstallDirs made them absolute.
foreach(_dir LIBDIR INCLUDEDIR)
  if(IS_ABSOLUTE "${CMAKE_INSTALL_${_dir}}")
    set(_tmv_pc_${_dir} "${CMAKE_INSTALL_${_dir}}")
  else()
    set(_tmv_pc_${_dir} "\${prefix}/${CMAKE_INSTALL_${_dir}}")
  endif()
endforeach()
install(CODE "
  set(PROJECT_VERSION [[${PROJECT_VERSION}]])
  set(TENSORMOVE_PC_LIBDIR [[${_tmv_pc_LIBDIR}]])
  set(TENSORMOVE_PC_INCLUDEDIR [[${_tmv_pc_INCLUDEDIR}]])
  set(TENSORMOVE_PC_PTHREADPOOL [[${TENSORMOVE_PC_PTHREADPOOL}]])
  configure_file([[${PROJECT_SOURCE_DIR}/cmake/tensormove.pc.in]]
                 [[${PROJECT_BINARY_DIR}/pkgconfig/tensormove.pc]] @ONLY)
  " COMPONENT development)
install(FILES "${PROJECT_BINARY_DIR}/pkgconfig/tensormove.pc"
        DESTINATION "${CMAKE_INSTALL_LIBDIR}/pkgconfig" COMPONENT development)

# tmv-demo finds the library next to it (bin/../lib...) wherever the prefix is.
if(NOT IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}" AND NOT IS_ABSOLUTE "${CMAKE_INSTALL_BINDIR}")
  file(RELATIVE_PATH _tmv_bin_to_lib "/p/${CMAKE_INSTALL_BINDIR}" "/p/${CMAKE_INSTALL_LIBDIR}")
  set_target_properties(tmv-demo PROPERTIES INSTALL_RPATH "$ORIGIN/${_tmv_bin_to_lib}")
endif()
install(TARGETS tmv-demo RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}" COMPONENT runtime)
# The verifier and the per-kernel checker (static, so no RPATH needed):
# users run them on their own CPU.
if(TARGET tmv-verify)
  install(TARGETS tmv-verify RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}" COMPONENT runtime)
endif()
if(TARGET tmv-check-kernels)
  install(TARGETS tmv-check-kernels RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}" COMPONENT runtime)
endif()
