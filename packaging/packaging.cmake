# `cmake --install` and `cpack -G DEB` (issue 18 item 9; docs/install.md). The layout is the one the
# binary looks for at run time: modules in ../lib/xferbench beside bin/ (core/shared_module.cpp),
# the dialects' names as links to the binary in bin/.
#   bin/xferbench, bin/<dialect> -> xferbench
#   lib/xferbench/libxferbench-{backend-acl,backend-cuda,runtime-mpi,transport-ucx}.so
#   share/xferbench/{builtin,sku}_expectations.yaml   (also built into the binary: for reading)
#   share/xferbench/schemas/*.schema.json
#   share/man/man1/xferbench.1.gz, xferbench-<command>.1.gz   (help2man over the program's --help)
#   share/bash-completion/completions/xferbench (and a link per dialect name)
include(GNUInstallDirs)

install(TARGETS xferbench RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
foreach(dialect ${XB_DIALECT_LINKS})
  install(CODE "file(CREATE_LINK xferbench \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_BINDIR}/${dialect}\" SYMBOLIC)")
endforeach()
foreach(module xferbench_backend_acl xferbench_backend_cuda xferbench_runtime_mpi xferbench_transport_ucx)
  if(TARGET ${module})
    install(TARGETS ${module} LIBRARY DESTINATION lib/xferbench)
  endif()
endforeach()
install(FILES ${PROJECT_SOURCE_DIR}/src/judge/builtin_expectations.yaml ${PROJECT_SOURCE_DIR}/src/judge/sku_expectations.yaml
  DESTINATION ${CMAKE_INSTALL_DATADIR}/xferbench)
file(GLOB XB_SCHEMAS ${PROJECT_SOURCE_DIR}/schemas/*.schema.json)
install(FILES ${XB_SCHEMAS} DESTINATION ${CMAKE_INSTALL_DATADIR}/xferbench/schemas)

# Man pages: made from the built binary's help whenever it changes (help2man: scripts/setup.sh).
# Not in the sanitizer and fuzz builds, which do not package.
find_program(XB_HELP2MAN help2man)
if(XB_HELP2MAN AND NOT XB_SANITIZE AND NOT XB_FUZZ)
  set(XB_MAN_DIR ${PROJECT_BINARY_DIR}/man)
  add_custom_command(OUTPUT ${XB_MAN_DIR}/xferbench.1.gz
    COMMAND ${CMAKE_COMMAND} -E rm -rf ${XB_MAN_DIR}
    COMMAND bash ${PROJECT_SOURCE_DIR}/packaging/make_man_pages.sh ${XB_HELP2MAN} $<TARGET_FILE:xferbench>
      ${PROJECT_VERSION} ${XB_MAN_DIR}
    DEPENDS xferbench ${PROJECT_SOURCE_DIR}/packaging/make_man_pages.sh
    COMMENT "man pages from xferbench --help (help2man)")
  add_custom_target(xferbench_man ALL DEPENDS ${XB_MAN_DIR}/xferbench.1.gz)
  set(XB_MAN_PAGES ON)
  # OPTIONAL: an install after building only the binary (--target xferbench) still installs the rest.
  install(DIRECTORY ${XB_MAN_DIR}/ DESTINATION ${CMAKE_INSTALL_MANDIR}/man1 OPTIONAL FILES_MATCHING PATTERN "*.1.gz")
elseif(NOT XB_HELP2MAN)
  message(WARNING "help2man not found: no man pages are built or installed (scripts/setup.sh installs it)")
endif()

set(XB_COMPLETIONS ${CMAKE_INSTALL_DATADIR}/bash-completion/completions)
install(FILES ${PROJECT_SOURCE_DIR}/packaging/xferbench.bash-completion DESTINATION ${XB_COMPLETIONS} RENAME xferbench)
# bash-completion loads a completion by the command's name: each dialect name links to the one file
# (not `benchmark`: see the file).
foreach(dialect ${XB_DIALECT_LINKS})
  if(NOT dialect STREQUAL "benchmark")
    install(CODE "file(CREATE_LINK xferbench \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${XB_COMPLETIONS}/${dialect}\" SYMBOLIC)")
  endif()
endforeach()

# The Debian package. Its dependencies come from the installed binary and modules (dpkg-shlibdeps),
# so they are what this build links, never a list kept by hand.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME xferbench)
set(CPACK_PACKAGE_VENDOR "xferbench")
set(CPACK_PACKAGE_CONTACT "xferbench developers <xferbench@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "measure every path data takes in an AI cluster")
set(CPACK_PACKAGE_DESCRIPTION
  "One program that measures host-device copies, device P2P, storage into host or device memory, transfers between endpoints, links swept over sizes and whole fleets of links, with one method and one result format. It also answers to the command lines of gdsio, sharp_coll_test, the HIXL benchmark, ascend-dmi and UCM dev-sandbox.")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION utils)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# The modules load their libraries (libcuda, libascendcl) only where present: nothing to depend on.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS_PRIVATE_DIRS ${PROJECT_BINARY_DIR}/src/modules)
set(CPACK_STRIP_FILES ON)
include(CPack)
