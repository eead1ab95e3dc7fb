# The tree-sitter runtime and the Python grammar, compiled from the pinned PyPI
# source distributions in cmake/tree-sitter-sources.txt. pip downloads them (hash
# checked) into the build tree at configure time; FXLINT_TREE_SITTER_SDISTS names a
# folder that already holds them, for builds without an index.
set(FXLINT_TREE_SITTER_SDISTS "" CACHE PATH "Folder holding the pinned tree-sitter sdists")
set(_ts_requirements ${CMAKE_SOURCE_DIR}/cmake/tree-sitter-sources.txt)
set(_ts_root ${CMAKE_BINARY_DIR}/_deps/tree-sitter)
file(SHA256 ${_ts_requirements} _ts_key)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${_ts_requirements})

if(NOT EXISTS ${_ts_root}/${_ts_key}.stamp)
  file(REMOVE_RECURSE ${_ts_root})
  set(_ts_sdists ${_ts_root}/sdists)
  if(FXLINT_TREE_SITTER_SDISTS)
    set(_ts_sdists ${FXLINT_TREE_SITTER_SDISTS})
  else()
    find_package(Python3 COMPONENTS Interpreter REQUIRED)
    message(STATUS "Downloading the tree-sitter sources (${_ts_requirements})")
    execute_process(
      COMMAND ${Python3_EXECUTABLE} -m pip download --quiet --disable-pip-version-check
              --no-deps --no-binary=:all: --require-hashes -r ${_ts_requirements} -d ${_ts_sdists}
      RESULT_VARIABLE _ts_rc ERROR_VARIABLE _ts_err)
    if(NOT _ts_rc EQUAL 0)
      message(FATAL_ERROR "Could not download the tree-sitter sources with ${Python3_EXECUTABLE} -m pip:\n"
                          "${_ts_err}\nDownload them with `pip download --no-deps --no-binary=:all: "
                          "-r cmake/tree-sitter-sources.txt -d DIR` and configure with "
                          "-DFXLINT_TREE_SITTER_SDISTS=DIR.")
    endif()
  endif()
  file(GLOB _ts_archives ${_ts_sdists}/tree_sitter*.tar.gz ${_ts_sdists}/tree-sitter*.tar.gz)
  foreach(archive ${_ts_archives})
    file(ARCHIVE_EXTRACT INPUT ${archive} DESTINATION ${_ts_root}/src)
  endforeach()
  file(WRITE ${_ts_root}/${_ts_key}.stamp "")
endif()

file(GLOB TS_RUNTIME LIST_DIRECTORIES true ${_ts_root}/src/tree-sitter-*/tree_sitter/core/lib)
file(GLOB TS_PYTHON LIST_DIRECTORIES true ${_ts_root}/src/tree_sitter_python-*/src)
if(NOT EXISTS "${TS_RUNTIME}/src/lib.c" OR NOT EXISTS "${TS_PYTHON}/parser.c")
  file(REMOVE_RECURSE ${_ts_root})
  message(FATAL_ERROR "The tree-sitter sdists did not hold the expected C sources; reconfigure to download them again")
endif()

add_library(tree_sitter STATIC ${TS_RUNTIME}/src/lib.c)
target_include_directories(tree_sitter PUBLIC ${TS_RUNTIME}/include PRIVATE ${TS_RUNTIME}/src)
set_target_properties(tree_sitter PROPERTIES C_STANDARD 11 POSITION_INDEPENDENT_CODE ON)
target_compile_options(tree_sitter PRIVATE -w)

# The grammar's sdist leaves out the headers that `tree-sitter generate` copies
# next to parser.c; they are the runtime's own, so the grammar takes them from there.
set(_ts_grammar_include ${_ts_root}/grammar-include)
foreach(header parser.h array.h alloc.h)
  configure_file(${TS_RUNTIME}/src/${header} ${_ts_grammar_include}/tree_sitter/${header} COPYONLY)
endforeach()
add_library(tree_sitter_python STATIC ${TS_PYTHON}/parser.c ${TS_PYTHON}/scanner.c)
target_include_directories(tree_sitter_python PRIVATE ${TS_PYTHON} ${_ts_grammar_include})
set_target_properties(tree_sitter_python PROPERTIES C_STANDARD 11 POSITION_INDEPENDENT_CODE ON)
target_compile_options(tree_sitter_python PRIVATE -w)
