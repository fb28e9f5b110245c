# Fails when a folder includes a header of a folder above it. ORDER lists sibling folders of
# ROOT from the bottom up; a file under ORDER[i] may include "<PREFIX><ORDER[j]>/..." only for
# j <= i. Used at configure time (tclens_check_include_order) and as a script, so that a test can
# run it on a planted tree:
#   cmake -DROOT=dir -DPREFIX=app/gui/ -DORDER="jobs;views;panels;shell" -P IncludeOrder.cmake

function(tclens_check_include_order root prefix)
    set(order ${ARGN})
    string(JOIN " < " order_text ${order})
    list(LENGTH order count)
    math(EXPR last "${count} - 1")
    foreach(i RANGE ${last})
        list(GET order ${i} folder)
        file(GLOB_RECURSE files "${root}/${folder}/*.h" "${root}/${folder}/*.cpp"
             "${root}/${folder}/*.cu" "${root}/${folder}/*.cuh")
        foreach(file IN LISTS files)
            file(STRINGS "${file}" includes REGEX "^[ \t]*#[ \t]*include[ \t]*\"${prefix}[^/\"]+/")
            foreach(line IN LISTS includes)
                string(REGEX REPLACE ".*\"${prefix}([^/\"]+)/.*" "\\1" target "${line}")
                list(FIND order "${target}" j)
                if(j GREATER i)
                    file(RELATIVE_PATH shown "${root}" "${file}")
                    string(STRIP "${line}" line)
                    message(FATAL_ERROR "include order: ${prefix}${shown} has '${line}', a folder "
                                        "above its own (${prefix}: ${order_text})")
                endif()
            endforeach()
        endforeach()
    endforeach()
endfunction()

if(CMAKE_SCRIPT_MODE_FILE STREQUAL CMAKE_CURRENT_LIST_FILE)
    tclens_check_include_order("${ROOT}" "${PREFIX}" ${ORDER})
endif()
