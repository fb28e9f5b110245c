# GoogleTest for tclens's tests, and how ctest reads their verdicts. tests/CMakeLists.txt uses it,
# and so does the planted project of tests/data/planted_verdicts/ that checks those verdicts.
#
# A test's verdict comes from its exit code, never from words in its output:
#   0                           passed
#   TCLENS_SKIPPED_EXIT_CODE    skipped: a test the entry ran called GTEST_SKIP and none failed
#                               (tests/support/gtest_main.cpp), or a script test that could not
#                               run here exits with it
#   anything else               failed, whatever the output says ("skipped: ..." included)

set(TCLENS_SKIPPED_EXIT_CODE 77)

find_package(GTest CONFIG QUIET)
if(NOT GTest_FOUND AND NOT TARGET GTest::gtest)
    # Machines without libgtest-dev (the GPU server) pass GoogleTest's sources instead.
    set(TCLENS_GTEST_SOURCE "" CACHE PATH "GoogleTest source folder, used when none is installed")
    if(NOT EXISTS "${TCLENS_GTEST_SOURCE}/CMakeLists.txt")
        message(FATAL_ERROR "GoogleTest not found: install libgtest-dev, or set "
                            "-DTCLENS_GTEST_SOURCE=<googletest sources>, or -DTCLENS_TESTS=OFF")
    endif()
    set(INSTALL_GTEST OFF CACHE BOOL "" FORCE)
    add_subdirectory(${TCLENS_GTEST_SOURCE} ${CMAKE_BINARY_DIR}/googletest EXCLUDE_FROM_ALL)
    if(NOT TARGET GTest::gtest)  # GoogleTest >= 1.11 defines these aliases itself
        add_library(GTest::gtest ALIAS gtest)
    endif()
endif()
set(TCLENS_LIST_GOOGLE_TESTS ${CMAKE_CURRENT_LIST_DIR}/ListGoogleTests.cmake)

# The main() of every test binary: GoogleTest's run, and the exit code above.
add_library(tclens_gtest_main STATIC ${CMAKE_CURRENT_LIST_DIR}/../tests/support/gtest_main.cpp)
target_compile_definitions(tclens_gtest_main
    PRIVATE TCLENS_SKIPPED_EXIT_CODE=${TCLENS_SKIPPED_EXIT_CODE})
target_link_libraries(tclens_gtest_main PUBLIC GTest::gtest)

# Registers each GoogleTest test of `target` (a value-parameterized one with all its values) as its
# own ctest entry "<label>.<Suite>.<Test>" with
# the label `label`, listed after each build (cmake/ListGoogleTests.cmake); before the first
# build ctest sees one entry, <target>_NOT_BUILT, which fails.
function(tclens_discover_gtests target label)
    set(listed "${CMAKE_CURRENT_BINARY_DIR}/${target}_tests.cmake")
    add_custom_command(TARGET ${target} POST_BUILD
        COMMAND ${CMAKE_COMMAND} -D BINARY=$<TARGET_FILE:${target}> -D LABEL=${label}
                -D SKIP_CODE=${TCLENS_SKIPPED_EXIT_CODE} -D WORKING_DIR=${CMAKE_CURRENT_BINARY_DIR}
                -D OUT=${listed} -P ${TCLENS_LIST_GOOGLE_TESTS}
        BYPRODUCTS ${listed}
        VERBATIM)
    set(include_file "${CMAKE_CURRENT_BINARY_DIR}/${target}_include.cmake")
    file(WRITE ${include_file}
         "if(EXISTS \"${listed}\")\n"
         "    include(\"${listed}\")\n"
         "else()\n"
         "    add_test(${target}_NOT_BUILT ${target}_NOT_BUILT)\n"
         "endif()\n")
    set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES ${include_file})
endfunction()

# A ctest entry that runs a script: `label`.`name`, skipped when it exits with
# TCLENS_SKIPPED_EXIT_CODE. Extra arguments are the command.
function(tclens_add_script_test name label)
    add_test(NAME ${label}.${name} COMMAND ${ARGN})
    set_tests_properties(${label}.${name} PROPERTIES
                         LABELS ${label} SKIP_RETURN_CODE ${TCLENS_SKIPPED_EXIT_CODE})
endfunction()
