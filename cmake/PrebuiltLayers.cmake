# A tree that links the lower layers another tree built instead of compiling them again
# (scripts/dev.sh test: build-asan/ links build/'s viz, kernels and profiling). The sanitized tree
# instruments the app and what only it uses (app/, kernels/user/, common/) and the tests run it;
# the layers below run as they ship, and their parsers of outside input run under the sanitizers
# in the fuzz harnesses (tests/fuzz/). Compiling those layers was 953 s of the sanitized tree's
# 1794 s of compile jobs (their CUDA alone 394 s), 2026-11-29.
#
# TCLENS_PREBUILT: the other tree's build folder (same sources, built first), or empty.
set(TCLENS_PREBUILT "" CACHE PATH "A build folder whose viz, kernels and profiling this tree links")

# tclens_use_prebuilt(<target> [<archive-variable>]): with TCLENS_PREBUILT, `target` (a static
# library declared in the current folder) compiles nothing and links the archive the prebuilt
# tree made of it, <prebuilt>/<folder>/lib<target>.a; its include folders and dependencies stay
# as declared. Sets <archive-variable> to the file that holds the target's code either way.
function(tclens_use_prebuilt target)
    set(archive_variable ${ARGV1})
    if(NOT TCLENS_PREBUILT)
        if(archive_variable)
            set(${archive_variable} $<TARGET_FILE:${target}> PARENT_SCOPE)
        endif()
        return()
    endif()
    file(RELATIVE_PATH folder ${PROJECT_BINARY_DIR} ${CMAKE_CURRENT_BINARY_DIR})
    set(archive ${TCLENS_PREBUILT}/${folder}/lib${target}.a)
    if(NOT EXISTS ${archive})
        message(FATAL_ERROR "TCLENS_PREBUILT: ${archive} does not exist; build ${target} in "
                            "${TCLENS_PREBUILT} first")
    endif()
    set(placeholder ${CMAKE_CURRENT_BINARY_DIR}/${target}_prebuilt.cpp)
    file(WRITE ${placeholder} "// ${target} is linked from ${archive} (cmake/PrebuiltLayers.cmake)\n")
    set_property(TARGET ${target} PROPERTY SOURCES ${placeholder})
    # The archive as a target of its own that needs what `target` needs, so that it comes before
    # those on every link line; its dependencies are copied once the folder declared them all.
    add_library(${target}_prebuilt STATIC IMPORTED)
    set_target_properties(${target}_prebuilt PROPERTIES IMPORTED_LOCATION ${archive})
    target_link_libraries(${target} PUBLIC ${target}_prebuilt)
    # (A deferred call's arguments are read when it runs: EVAL puts the name in now.)
    cmake_language(EVAL CODE "cmake_language(DEFER CALL _tclens_prebuilt_needs [[${target}]])")
    if(archive_variable)
        set(${archive_variable} ${archive} PARENT_SCOPE)
    endif()
endfunction()

function(_tclens_prebuilt_needs target)
    get_target_property(needs ${target} INTERFACE_LINK_LIBRARIES)
    list(REMOVE_ITEM needs ${target}_prebuilt)
    set_property(TARGET ${target}_prebuilt PROPERTY INTERFACE_LINK_LIBRARIES "${needs}")
endfunction()
