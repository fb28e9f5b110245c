# Fails the configure step when a layer links something its layer may not (README.md, "Layout"):
# common links nothing at all; viz no CUDA, no GL and of ours only common; kernels (kernels/user
# too) and profiling link no GL or ImGui; only app/gui does, and of it only tclens_gui links GLFW
# and OpenGL. kernels may use viz (layout probes load registers through the models). Only the
# worker runs a user's code: no library but tclens_worker_server links tclens_user_runtime.
# The client's libraries (TCLENS_CLIENT_TARGETS) link no CUDA at all, not even through another
# library, so that a machine without a CUDA toolkit builds them (TCLENS_CLIENT_ONLY).
function(_tclens_forbid target)
    get_target_property(libs ${target} LINK_LIBRARIES)
    if(NOT libs)
        return()
    endif()
    foreach(lib IN LISTS libs)
        foreach(pattern IN LISTS ARGN)
            if(lib MATCHES "${pattern}")
                message(FATAL_ERROR "layering: ${target} links ${lib}, which its layer may not use")
            endif()
        endforeach()
    endforeach()
endfunction()

# Every library and executable of the project so far (the directories below `dir`).
function(_tclens_targets_below dir out)
    get_property(targets DIRECTORY "${dir}" PROPERTY BUILDSYSTEM_TARGETS)
    get_property(subdirs DIRECTORY "${dir}" PROPERTY SUBDIRECTORIES)
    foreach(subdir IN LISTS subdirs)
        _tclens_targets_below("${subdir}" below)
        list(APPEND targets ${below})
    endforeach()
    set(${out} ${targets} PARENT_SCOPE)
endfunction()

# Fails when a target other than `allowed` links `library` directly.
function(_tclens_only_linked_by library allowed)
    _tclens_targets_below("${PROJECT_SOURCE_DIR}" targets)
    foreach(target IN LISTS targets)
        get_target_property(type ${target} TYPE)
        if(target STREQUAL allowed OR type STREQUAL "INTERFACE_LIBRARY")
            continue()
        endif()
        get_target_property(libs ${target} LINK_LIBRARIES)
        if(libs AND "${library}" IN_LIST libs)
            message(FATAL_ERROR "layering: ${target} links ${library}, which only ${allowed} may")
        endif()
    endforeach()
endfunction()

# The libraries a client without CUDA is made of: TCLENS_CLIENT_TARGETS (CMakeLists.txt).
# What a client may not link, directly or through another library: CUDA (the runtime, driver,
# CUPTI, cuBLAS, NVRTC) and the layers of ours that use it, the user-kernel loader included.
set(TCLENS_GPU_LINKS "^CUDA::" "cudart" "cupti" "cublas" "nvrtc" "^cuda$" "^tclens_kernels$"
    "^tclens_profiling$" "^tclens_user_runtime$")

# Fails when `target`, or any library it links however deep, links something matching one of
# the patterns after it; the message shows the chain that leads there.
function(_tclens_forbid_below target)
    set(queue ${target})
    set(chains ${target})
    set(seen ${target})
    while(queue)
        list(POP_FRONT queue current)
        list(POP_FRONT chains chain)
        set(libs)
        foreach(property LINK_LIBRARIES INTERFACE_LINK_LIBRARIES)
            get_target_property(more ${current} ${property})
            if(more)
                list(APPEND libs ${more})
            endif()
        endforeach()
        foreach(lib IN LISTS libs)
            # A static library's private dependencies read $<LINK_ONLY:lib>; other generator
            # expressions and target_link_libraries' directory markers (::@...) name no library.
            string(REGEX REPLACE "^\\$<LINK_ONLY:(.*)>$" "\\1" lib "${lib}")
            if(lib MATCHES "^\\$<" OR lib MATCHES "^::@" OR lib IN_LIST seen)
                continue()
            endif()
            foreach(pattern IN LISTS ARGN)
                if(lib MATCHES "${pattern}")
                    message(FATAL_ERROR "layering: ${target} links ${lib} (${chain} -> ${lib}), "
                                        "which a client without CUDA may not")
                endif()
            endforeach()
            list(APPEND seen ${lib})
            if(TARGET ${lib})
                list(APPEND queue ${lib})
                list(APPEND chains "${chain} -> ${lib}")
            endif()
        endforeach()
    endwhile()
endfunction()

# The client's libraries: no CUDA sources, no CUDA linked however deep.
function(tclens_check_client_layering)
    foreach(target IN LISTS TCLENS_CLIENT_TARGETS)
        if(NOT TARGET ${target})
            continue()
        endif()
        get_target_property(sources ${target} SOURCES)
        foreach(src IN LISTS sources)
            if(src MATCHES "\\.cu$")
                message(FATAL_ERROR "layering: ${target} must not contain CUDA sources (${src})")
            endif()
        endforeach()
        _tclens_forbid_below(${target} ${TCLENS_GPU_LINKS})
    endforeach()
endfunction()

function(tclens_check_layering)
    set(gui_libs "glfw" "OpenGL" "imgui" "^GL$")
    _tclens_forbid(tclens_common "CUDA::" "tclens_" ${gui_libs})
    _tclens_forbid(tclens_viz "CUDA::" "tclens_kernels" "tclens_profiling" ${gui_libs})
    _tclens_forbid(tclens_kernels "tclens_profiling" ${gui_libs})
    _tclens_forbid(tclens_user_source "tclens_profiling" "CUDA::" "nvrtc" ${gui_libs})
    _tclens_forbid(tclens_user_runtime "tclens_profiling" ${gui_libs})
    _tclens_only_linked_by(tclens_user_runtime tclens_worker_server)
    _tclens_forbid(tclens_profiling ${gui_libs})
    # The model reads and holds results: of ours only common, viz, the kernels' model, the
    # SASS census's reader (tclens_sass_census) and the census itself (tclens_instruction_mix).
    _tclens_forbid(tclens_profiling_model "^tclens_kernels$" "^tclens_profiling$" "tclens_user"
                   ${gui_libs})
    _tclens_forbid(tclens_sass_census "CUDA::" "tclens_kernels" "tclens_profiling" ${gui_libs})
    _tclens_forbid(tclens_instruction_mix "tclens_profiling" ${gui_libs})
    if(TARGET tclens_gui_core)  # draws only: the window (GLFW, OpenGL) is tclens_gui's
        _tclens_forbid(tclens_gui_core "glfw" "OpenGL" "^GL$")
    endif()
    tclens_check_client_layering()
endfunction()
