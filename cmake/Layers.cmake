# The layers, enforced by the build: a layer's target sees its own headers and,
# through the targets it links, those of the layers below it, nothing more.
# Each layer's folder is reached through a link of its own under the build
# tree (layers/rules/rules -> rules/), so `#include "cli/..."` from rules/ does
# not compile.
#
# Warnings are errors in the project's own targets of a developer build
# (FXLINT_WERROR); a wheel built by a user's compiler only warns.
if(FXLINT_TESTS)
  option(FXLINT_WERROR "Treat warnings as errors" ON)
else()
  option(FXLINT_WERROR "Treat warnings as errors" OFF)
endif()

function(fxlint_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra)
  if(FXLINT_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()

function(fxlint_layer target layer)
  set(root ${CMAKE_BINARY_DIR}/layers/${layer})
  file(MAKE_DIRECTORY ${root})
  if(NOT EXISTS ${root}/${layer})
    file(CREATE_LINK ${CMAKE_SOURCE_DIR}/${layer} ${root}/${layer} SYMBOLIC)
  endif()
  target_include_directories(${target} PUBLIC ${root})
  fxlint_warnings(${target})
endfunction()
