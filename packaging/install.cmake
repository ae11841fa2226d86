# Install rules for both programs and their documentation, and the Debian package (CPack DEB):
#   cmake --build build --target package   →  build/cnready_<version>_<arch>.deb
# The studio's desktop file, AppStream metainfo, icon and examples are installed by
# ui/CMakeLists.txt.
include(GNUInstallDirs)

install(TARGETS cnready RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}")
if(TARGET cnready-studio)
  install(TARGETS cnready-studio RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}")
endif()

# Debian 12 has no KSyntaxHighlighting for Qt 6: when the studio links the copy that
# packaging/bootstrap.sh built, that library travels in the package, in a private folder.
if(TARGET cnready-studio AND TARGET KF5::SyntaxHighlighting)
  get_target_property(_ksh_location KF5::SyntaxHighlighting LOCATION)
  if(_ksh_location AND NOT _ksh_location MATCHES "^/usr/")
    get_filename_component(_ksh_dir "${_ksh_location}" DIRECTORY)
    file(GLOB _ksh_files "${_ksh_dir}/libKF5SyntaxHighlighting.so.*")
    install(FILES ${_ksh_files} DESTINATION "${CMAKE_INSTALL_LIBDIR}/cnready")
    set_target_properties(cnready-studio PROPERTIES
      INSTALL_RPATH "$ORIGIN/../${CMAKE_INSTALL_LIBDIR}/cnready")
    set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS_PRIVATE_DIRS "${_ksh_dir}")
  endif()
endif()

# Man pages from --help, so they never drift from the programs.
set(_man_dir "${PROJECT_BINARY_DIR}/man")
add_custom_command(
  OUTPUT "${_man_dir}/cnready.1.gz"
  COMMAND ${CMAKE_COMMAND} -DPROGRAM=$<TARGET_FILE:cnready> -DNAME=cnready -DSECTION=1
          "-DSUMMARY=assess NumPy code for a cuPyNumeric migration"
          -DVERSION=${PROJECT_VERSION} "-DSUBCOMMANDS=assess\\;rules\\;explain\\;manifest\\;port"
          -DOUTPUT=${_man_dir}/cnready.1.gz -P "${PROJECT_SOURCE_DIR}/packaging/manpage.cmake"
  DEPENDS cnready "${PROJECT_SOURCE_DIR}/packaging/manpage.cmake"
  COMMENT "Man page cnready(1) from --help")
set(_man_pages "${_man_dir}/cnready.1.gz")
if(TARGET cnready-studio)
  add_custom_command(
    OUTPUT "${_man_dir}/cnready-studio.1.gz"
    COMMAND ${CMAKE_COMMAND} -DPROGRAM=$<TARGET_FILE:cnready-studio> -DNAME=cnready-studio
            -DSECTION=1 "-DSUMMARY=desktop assessor of NumPy code for cuPyNumeric"
            -DVERSION=${PROJECT_VERSION} -DOUTPUT=${_man_dir}/cnready-studio.1.gz
            -P "${PROJECT_SOURCE_DIR}/packaging/manpage.cmake"
    DEPENDS cnready-studio "${PROJECT_SOURCE_DIR}/packaging/manpage.cmake"
    COMMENT "Man page cnready-studio(1) from --help")
  list(APPEND _man_pages "${_man_dir}/cnready-studio.1.gz")
endif()
add_custom_target(man_pages ALL DEPENDS ${_man_pages})
install(FILES ${_man_pages} DESTINATION "${CMAKE_INSTALL_MANDIR}/man1")
install(FILES "${PROJECT_SOURCE_DIR}/packaging/debian/copyright"
        DESTINATION "${CMAKE_INSTALL_DOCDIR}")

set(CPACK_GENERATOR "DEB")
set(CPACK_PACKAGE_NAME "cnready")
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
set(CPACK_PACKAGE_CONTACT "cnready developers <cnready@localhost>")
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION
    "Reads a Python/NumPy project statically (it never runs it), classifies every\narray idiom, walks six decision gates and gives one of four verdicts with a\nfile:line and a refactor recipe for every finding. Includes the cnready command\nline (Markdown, JSON, SARIF, GitHub annotations, baselines) and cnready-studio.")
set(CPACK_DEBIAN_PACKAGE_SECTION "devel")
set(CPACK_DEBIAN_FILE_NAME "DEB-DEFAULT")
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_STRIP_FILES ON)
set(CPACK_PACKAGING_INSTALL_PREFIX "/usr")
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
include(CPack)
