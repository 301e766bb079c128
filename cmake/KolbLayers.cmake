# The layers of kolb (docs/design.md, "Layers"), enforced: each layer is an
# INTERFACE target kolb_layer_<name> whose include directory holds only its
# own headers (a folder of the build tree linking to include/kolb/<name>),
# linked to the targets of the layers it may use. The library's sources are
# compiled per layer against their layer's target, and the header check
# compiles every header against its own: an include of a layer above fails
# to build ("kolb/domain/...: No such file or directory").
#
#   core <- lattice <- layout <- block <- model <- boundary <- kernels --.
#                                           ^                            v
#                                           io <- comm <------------ domain <- balance <- app
set(KOLB_LAYERS core lattice layout block model boundary kernels io comm domain balance app)
set(kolb_uses_core)
set(kolb_uses_lattice core)
set(kolb_uses_layout lattice)
set(kolb_uses_block layout)
set(kolb_uses_model block)
set(kolb_uses_boundary model)
set(kolb_uses_kernels boundary)
set(kolb_uses_io model)
set(kolb_uses_comm io)
set(kolb_uses_domain kernels comm)
set(kolb_uses_balance domain)
set(kolb_uses_app balance)
foreach(layer IN LISTS KOLB_LAYERS)
  set(dir ${PROJECT_BINARY_DIR}/layers/${layer})
  file(MAKE_DIRECTORY ${dir}/kolb)
  if(NOT EXISTS ${dir}/kolb/${layer})
    file(CREATE_LINK ${PROJECT_SOURCE_DIR}/include/kolb/${layer} ${dir}/kolb/${layer} SYMBOLIC)
  endif()
  add_library(kolb_layer_${layer} INTERFACE)
  target_include_directories(kolb_layer_${layer} INTERFACE $<BUILD_INTERFACE:${dir}>)
  foreach(used IN LISTS kolb_uses_${layer})
    target_link_libraries(kolb_layer_${layer} INTERFACE kolb_layer_${used})
  endforeach()
endforeach()
# kolb/config.hpp (generated) is a fact of the build: every layer may read it.
target_include_directories(kolb_layer_core INTERFACE $<BUILD_INTERFACE:${PROJECT_BINARY_DIR}/include>)
target_link_libraries(kolb_layer_core INTERFACE Kokkos::kokkos)

# kolb_layer_sources(LAYER TARGET source...): the sources of TARGET that
# belong to LAYER, compiled as an object library against that layer alone.
# (TARGET_objects_LAYER); its objects go into TARGET, `kolb_flags` gives them
# the options of the library.
function(kolb_layer_sources layer target)
  set(objects ${target}_objects_${layer})
  add_library(${objects} OBJECT ${ARGN})
  target_link_libraries(${objects} PRIVATE kolb_layer_${layer} kolb_flags kolb_warnings)
  target_sources(${target} PRIVATE $<TARGET_OBJECTS:${objects}>)
endfunction()

# Every public header compiles on its own, against its own layer only (one
# generated source per header; CI's C++20 build): a header that misses an
# include, or includes a layer above its own, fails here.
function(kolb_header_check)
  foreach(layer IN LISTS KOLB_LAYERS)
    file(GLOB_RECURSE headers RELATIVE ${PROJECT_SOURCE_DIR}/include
         ${PROJECT_SOURCE_DIR}/include/kolb/${layer}/*.hpp)
    set(sources)
    foreach(h IN LISTS headers)
      string(MAKE_C_IDENTIFIER ${h} id)
      set(src ${PROJECT_BINARY_DIR}/header_check/${id}.cpp)
      file(CONFIGURE OUTPUT ${src} CONTENT "#include <${h}>\n#include <${h}>  // include guard\n")
      list(APPEND sources ${src})
    endforeach()
    if(sources)
      add_library(kolb_header_check_${layer} OBJECT ${sources})
      target_link_libraries(kolb_header_check_${layer} PRIVATE kolb_layer_${layer} kolb_flags
                                                               kolb_warnings)
    endif()
  endforeach()
endfunction()
