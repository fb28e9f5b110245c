# A tree that links the lower layers another tree built instead of compiling them again
# (scripts/dev.sh test: build-asan/ links build/'s viz, kernels and profiling). The sanitized tree
# instruments the app and what only it uses (app/, kernels/user/, common/) and the tests run it;
# the layers below run as they ship, and their parsers of outside input run under the sanitizers
# in the fuzz harnesses (tests/fuzz/). Compiling those layers was 953 s of the sanitized tree's
# 1794 s of compile jobs (their CUDA alone 394 s), 2026-11-29.
#
# TCLENS_PREBUILT: the other tree's build folder (same sources, built first), or empty.
set(TCLENS_PREBUILT "" CACHE PATH "A build folder whose viz, kernels and profiling this tree links")
# TCLENS_CLIENT_PREBUILT: a client build's folder (TCLENS_CLIENT_ONLY, same sources and options),
# or empty. The full build then links the client's libraries from it (TCLENS_CLIENT_TARGETS,
# cmake/Layering.cmake), built there first, and compiles only what needs CUDA: scripts/dev.sh
# test builds the client (the proof that it builds without CUDA) and the full build without
# compiling the client's code twice. A tree whose TCLENS_PREBUILT took its client libraries from
# a client build takes them from there too.
set(TCLENS_CLIENT_PREBUILT "" CACHE PATH "A client build folder whose libraries this tree links")
if(TCLENS_PREBUILT AND NOT TCLENS_CLIENT_PREBUILT)
    load_cache(${TCLENS_PREBUILT} READ_WITH_PREFIX _tclens_prebuilt_ TCLENS_CLIENT_PREBUILT)
    set(_tclens_client_archives "${_tclens_prebuilt_TCLENS_CLIENT_PREBUILT}")
else()
    set(_tclens_client_archives "${TCLENS_CLIENT_PREBUILT}")
endif()
# The client tree is brought up to date before anything here links its archives (made once the
# folders named them all).
function(_tclens_add_client_prebuilt_target)
    get_property(archives GLOBAL PROPERTY TCLENS_CLIENT_ARCHIVES)
    add_custom_target(tclens_client_prebuilt
        COMMAND ${CMAKE_COMMAND} --build ${TCLENS_CLIENT_PREBUILT} --target tclens
        BYPRODUCTS ${archives}
        COMMENT "Building the client tree ${TCLENS_CLIENT_PREBUILT}"
        USES_TERMINAL)
endfunction()
if(TCLENS_CLIENT_PREBUILT)
    cmake_language(DEFER CALL _tclens_add_client_prebuilt_target)
endif()

# tclens_use_prebuilt(<target> [<archive-variable>]): with TCLENS_PREBUILT, `target` (a static
# library declared in the current folder) compiles nothing and links the archive the prebuilt
# tree made of it, <prebuilt>/<folder>/lib<target>.a; its include folders and dependencies stay
# as declared. Sets <archive-variable> to the file that holds the target's code either way.
function(tclens_use_prebuilt target)
    set(archive_variable ${ARGV1})
    set(from ${TCLENS_PREBUILT})
    if(_tclens_client_archives AND target IN_LIST TCLENS_CLIENT_TARGETS)
        set(from ${_tclens_client_archives})
    endif()
    if(NOT from)
        if(archive_variable)
            set(${archive_variable} $<TARGET_FILE:${target}> PARENT_SCOPE)
        endif()
        return()
    endif()
    file(RELATIVE_PATH folder ${PROJECT_BINARY_DIR} ${CMAKE_CURRENT_BINARY_DIR})
    set(archive ${from}/${folder}/lib${target}.a)
    if(NOT EXISTS ${archive} AND NOT from STREQUAL TCLENS_CLIENT_PREBUILT)
        message(FATAL_ERROR "TCLENS_PREBUILT: ${archive} does not exist; build ${target} in "
                            "${from} first")
    endif()
    set(placeholder ${CMAKE_CURRENT_BINARY_DIR}/${target}_prebuilt.cpp)
    file(WRITE ${placeholder} "// ${target} is linked from ${archive} (cmake/PrebuiltLayers.cmake)\n")
    set_property(TARGET ${target} PROPERTY SOURCES ${placeholder})
    # The archive as a target of its own that needs what `target` needs, so that it comes before
    # those on every link line; its dependencies are copied once the folder declared them all.
    add_library(${target}_prebuilt STATIC IMPORTED)
    set_target_properties(${target}_prebuilt PROPERTIES IMPORTED_LOCATION ${archive})
    target_link_libraries(${target} PUBLIC ${target}_prebuilt)
    if(from STREQUAL TCLENS_CLIENT_PREBUILT)
        set_property(GLOBAL APPEND PROPERTY TCLENS_CLIENT_ARCHIVES ${archive})
        add_dependencies(${target} tclens_client_prebuilt)
    endif()
    # (A deferred call's arguments are read when it runs: EVAL puts the name in now.)
    cmake_language(EVAL CODE "cmake_language(DEFER CALL _tclens_prebuilt_needs [[${target}]])")
    if(archive_variable)
        set(${archive_variable} ${archive} PARENT_SCOPE)
    endif()
endfunction()

# tclens_use_client_prebuilt(<target>): as tclens_use_prebuilt, but only from a client build
# (TCLENS_CLIENT_PREBUILT): for the app's client libraries, which a sanitized tree compiles itself.
function(tclens_use_client_prebuilt target)
    if(TCLENS_CLIENT_PREBUILT)
        tclens_use_prebuilt(${target})
    endif()
endfunction()

function(_tclens_prebuilt_needs target)
    get_target_property(needs ${target} INTERFACE_LINK_LIBRARIES)
    list(REMOVE_ITEM needs ${target}_prebuilt)
    set_property(TARGET ${target}_prebuilt PROPERTY INTERFACE_LINK_LIBRARIES "${needs}")
endfunction()
