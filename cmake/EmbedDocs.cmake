# Embeds rules/docs/<CODE>.md into a generated source as raw string literals,
# one per row of rule_table.def, so the binary carries its own docs. A row
# without a doc stops the configuration: `fxlint rule` would print nothing.
function(fxlint_embed_docs out_file)
  file(STRINGS ${CMAKE_SOURCE_DIR}/rules/rule_table.def rows REGEX "^RULE\\(")
  # Reconfigured when a row is added, so that there is one doc per row.
  set_property(DIRECTORY ${CMAKE_SOURCE_DIR} APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
               ${CMAKE_SOURCE_DIR}/rules/rule_table.def)
  set(body "// Generated from rules/docs/*.md by cmake/EmbedDocs.cmake.\n#include <string_view>\nnamespace fxlint::detail {\nextern const std::string_view kRuleDocs[] = {\n")
  foreach(row IN LISTS rows)
    string(REGEX MATCH "^RULE\\((FX[0-9]+)" _ "${row}")
    set(code ${CMAKE_MATCH_1})
    set(doc_path ${CMAKE_SOURCE_DIR}/rules/docs/${code}.md)
    set_property(DIRECTORY ${CMAKE_SOURCE_DIR} APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${doc_path})
    if(NOT EXISTS ${doc_path})
      message(FATAL_ERROR "rules/rule_table.def has ${code}, but rules/docs/${code}.md does not exist")
    endif()
    file(READ ${doc_path} doc)
    string(STRIP "${doc}" stripped)
    if(stripped STREQUAL "")
      message(FATAL_ERROR "rules/docs/${code}.md is empty")
    endif()
    string(APPEND body "  R\"fxdoc(${doc})fxdoc\",\n")
  endforeach()
  string(APPEND body "};\n}  // namespace fxlint::detail\n")
  file(CONFIGURE OUTPUT ${out_file} CONTENT "${body}" @ONLY)
endfunction()
