# Script mode: the commit this tree was built from, for `tclens --version` and the GPU results.
#   <12 hex digits of HEAD>                      the tree is HEAD's, untracked files included
#   <12 hex digits of HEAD>+dirty.<8 hex digits> it differs from HEAD; the 8 digits name its
#                                                whole content (the git tree an `add -A` would
#                                                commit), so two builds of one tree say the same
# A copy sent to a GPU server may have no .git, or an older one: there SOURCE_DIR/.carry/
# source_commit.txt, which scripts/make_carry.sh writes from the checkout ("<commit>" and the
# tree's full hash on a second line), names the commit, when the copy's tree is that tree or
# cannot be read; else "unknown (no git checkout)".
#   cmake -D SOURCE_DIR=... [-D OUT=header.h] [-D STAMP=1] -P SourceCommit.cmake
# With OUT it writes `#define TCLENS_COMMIT "..."` there when that changed; with STAMP it prints
# the stamp's two lines; else it prints the commit.
if(NOT DEFINED SOURCE_DIR)
    message(FATAL_ERROR "SourceCommit.cmake: -D SOURCE_DIR=... is missing")
endif()

function(git_output out)
    execute_process(COMMAND ${ARGN} WORKING_DIRECTORY "${SOURCE_DIR}"
                    OUTPUT_VARIABLE text RESULT_VARIABLE status
                    OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
    if(status EQUAL 0)
        set(${out} "${text}" PARENT_SCOPE)
    else()
        set(${out} "" PARENT_SCOPE)
    endif()
endfunction()

git_output(head git rev-parse --short=12 HEAD)
git_output(toplevel git rev-parse --show-toplevel)
get_filename_component(source_real "${SOURCE_DIR}" REALPATH)
if(head AND toplevel)
    get_filename_component(toplevel "${toplevel}" REALPATH)
endif()
set(commit "")
set(tree "")
if(head AND toplevel STREQUAL source_real)
    # The working tree's content as a tree object, through a copy of the index (the real one and
    # the repository's refs are left alone).
    git_output(index git rev-parse --git-path index)
    if(NOT IS_ABSOLUTE "${index}")
        set(index "${SOURCE_DIR}/${index}")
    endif()
    string(RANDOM LENGTH 8 suffix)
    set(scratch "${index}.tclens-${suffix}")
    file(COPY_FILE "${index}" "${scratch}")
    git_output(added ${CMAKE_COMMAND} -E env GIT_INDEX_FILE=${scratch} git add -A)
    git_output(tree ${CMAKE_COMMAND} -E env GIT_INDEX_FILE=${scratch} git write-tree)
    file(REMOVE "${scratch}")
    git_output(head_tree git rev-parse HEAD^{tree})
    set(commit "${head}")
    if(NOT tree STREQUAL head_tree)
        string(SUBSTRING "${tree}" 0 8 tree_short)
        set(commit "${head}+dirty.${tree_short}")
    endif()
endif()
set(stamp "${SOURCE_DIR}/.carry/source_commit.txt")
if(NOT DEFINED STAMP AND EXISTS "${stamp}")
    file(STRINGS "${stamp}" stamped)
    list(LENGTH stamped lines)
    if(lines EQUAL 2)
        list(GET stamped 0 stamped_commit)
        list(GET stamped 1 stamped_tree)
        if(NOT tree OR tree STREQUAL stamped_tree)
            set(commit "${stamped_commit}")
        endif()
    endif()
endif()
if(NOT commit)
    set(commit "unknown (no git checkout)")
endif()

if(DEFINED STAMP)
    message("${commit}\n${tree}")
    return()
endif()
if(NOT DEFINED OUT)
    message("${commit}")
    return()
endif()
set(header "#pragma once\n// Written at build time by cmake/SourceCommit.cmake.\n#define TCLENS_COMMIT \"${commit}\"\n")
if(EXISTS "${OUT}")
    file(READ "${OUT}" old)
    if(old STREQUAL header)
        return()
    endif()
endif()
file(WRITE "${OUT}" "${header}")
