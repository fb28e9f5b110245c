# Script mode, run after a test binary is built (cmake/GoogleTests.cmake, tclens_discover_gtests):
# lists its GoogleTest cases and writes OUT, a ctest file with one entry per test,
# "<LABEL>.<Suite>.<Test>", that runs the binary filtered to that test, labelled LABEL, and
# skipped only when it exits SKIP_CODE. CMake's gtest_discover_tests is not used because it gives
# every case a SKIP_REGULAR_EXPRESSION on "[  SKIPPED ]" that marks a failing case skipped when
# its output holds that text, and a later property cannot take it away.
#   cmake -D BINARY=... -D LABEL=... -D SKIP_CODE=... -D WORKING_DIR=... -D OUT=... -P this
foreach(required BINARY LABEL SKIP_CODE WORKING_DIR OUT)
    if(NOT DEFINED ${required})
        message(FATAL_ERROR "ListGoogleTests.cmake: -D ${required}=... is missing")
    endif()
endforeach()
execute_process(COMMAND "${BINARY}" --gtest_list_tests
                OUTPUT_VARIABLE listing RESULT_VARIABLE status TIMEOUT 60)
if(NOT status EQUAL 0)
    message(FATAL_ERROR "${BINARY} --gtest_list_tests failed (${status}):\n${listing}")
endif()

# The listing: "Suite.\n  Test\n  Test  # GetParam() = ...\n" (type and value comments after #).
# A value-parameterized test ("Prefix/Suite.Test/Value") is one entry over all its values,
# "<LABEL>.Prefix/Suite.Test", filtered "Prefix/Suite.Test/*": one process, not one per value
# (a layout property over 267 layouts is one start of the binary, not 267).
string(REPLACE ";" "\\;" listing "${listing}")
string(REPLACE "\n" ";" lines "${listing}")
set(script "")
set(previous "")
set(suite "")
foreach(line IN LISTS lines)
    string(REGEX REPLACE " *#.*$" "" line "${line}")
    if(line MATCHES "^  ([^ /]+)/[^ ]+$")
        set(name "${suite}${CMAKE_MATCH_1}")
        set(filter "${name}/*")
    elseif(line MATCHES "^  ([^ ]+)$")
        set(name "${suite}${CMAKE_MATCH_1}")
        set(filter "${name}")
    elseif(line MATCHES "^([^ ]+\\.)$")
        set(suite "${CMAKE_MATCH_1}")
        continue()
    else()
        continue()
    endif()
    if(NOT name STREQUAL previous)  # a test's values are listed one after another
        set(previous "${name}")
        string(APPEND script
               "add_test([==[${LABEL}.${name}]==] [==[${BINARY}]==] [==[--gtest_filter=${filter}]==])\n"
               "set_tests_properties([==[${LABEL}.${name}]==] PROPERTIES LABELS ${LABEL} "
               "SKIP_RETURN_CODE ${SKIP_CODE} WORKING_DIRECTORY [==[${WORKING_DIR}]==])\n")
    endif()
endforeach()
file(WRITE "${OUT}" "${script}")
