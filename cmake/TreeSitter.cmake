# tree-sitter runtime and the Python grammar, compiled from the pinned npm sources
# that scripts/setup-deps.sh installs into third_party/node_modules.
set(FXLINT_NODE_MODULES ${CMAKE_SOURCE_DIR}/third_party/node_modules)
set(TS_RUNTIME ${FXLINT_NODE_MODULES}/tree-sitter/vendor/tree-sitter/lib)
set(TS_PYTHON ${FXLINT_NODE_MODULES}/tree-sitter-python/src)
if(NOT EXISTS ${TS_RUNTIME}/src/lib.c OR NOT EXISTS ${TS_PYTHON}/parser.c)
  message(FATAL_ERROR "tree-sitter sources missing: run scripts/setup-deps.sh first")
endif()

add_library(tree_sitter STATIC ${TS_RUNTIME}/src/lib.c)
target_include_directories(tree_sitter PUBLIC ${TS_RUNTIME}/include PRIVATE ${TS_RUNTIME}/src)
set_target_properties(tree_sitter PROPERTIES C_STANDARD 11 POSITION_INDEPENDENT_CODE ON)
target_compile_options(tree_sitter PRIVATE -w)

add_library(tree_sitter_python STATIC ${TS_PYTHON}/parser.c ${TS_PYTHON}/scanner.c)
target_include_directories(tree_sitter_python PRIVATE ${TS_PYTHON})
set_target_properties(tree_sitter_python PROPERTIES C_STANDARD 11 POSITION_INDEPENDENT_CODE ON)
target_compile_options(tree_sitter_python PRIVATE -w)
