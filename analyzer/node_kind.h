#pragma once
// The tree-sitter-python node kinds the analyzer looks at, as a dense enum.
// Symbols are mapped once per process so kind checks are a table lookup, not
// a string compare.
#include <cstdint>
#include <span>

#include <tree_sitter/api.h>

namespace fxlint {

#define FXLINT_NODE_KINDS(X)                                                              \
  X(Module, "module") X(Comment, "comment") X(Identifier, "identifier")                  \
  X(FunctionDefinition, "function_definition") X(ClassDefinition, "class_definition")   \
  X(DecoratedDefinition, "decorated_definition") X(Decorator, "decorator")              \
  X(Block, "block") X(ExpressionStatement, "expression_statement")                      \
  X(Assignment, "assignment") X(AugmentedAssignment, "augmented_assignment")            \
  X(IfStatement, "if_statement") X(ElifClause, "elif_clause") X(ElseClause, "else_clause") \
  X(WhileStatement, "while_statement") X(ForStatement, "for_statement")                 \
  X(WithStatement, "with_statement") X(WithClause, "with_clause") X(WithItem, "with_item") \
  X(TryStatement, "try_statement") X(ExceptClause, "except_clause")                     \
  X(FinallyClause, "finally_clause") X(ExceptGroupClause, "except_group_clause")         \
  X(MatchStatement, "match_statement")                                                   \
  X(ReturnStatement, "return_statement") X(AssertStatement, "assert_statement")         \
  X(GlobalStatement, "global_statement") X(NonlocalStatement, "nonlocal_statement")     \
  X(DeleteStatement, "delete_statement") X(RaiseStatement, "raise_statement")           \
  X(PassStatement, "pass_statement") X(PrintStatement, "print_statement")               \
  X(ExecStatement, "exec_statement")                                                     \
  X(ImportStatement, "import_statement") X(ImportFromStatement, "import_from_statement") \
  X(FutureImportStatement, "future_import_statement")                                    \
  X(AliasedImport, "aliased_import") X(DottedName, "dotted_name")                       \
  X(RelativeImport, "relative_import") X(ImportPrefix, "import_prefix")                 \
  X(WildcardImport, "wildcard_import")                                                   \
  X(Call, "call") X(ArgumentList, "argument_list") X(KeywordArgument, "keyword_argument") \
  X(ListSplat, "list_splat") X(DictionarySplat, "dictionary_splat")                     \
  X(GeneratorExpression, "generator_expression")                                        \
  X(Attribute, "attribute") X(Subscript, "subscript") X(Slice, "slice")                 \
  X(BinaryOperator, "binary_operator") X(UnaryOperator, "unary_operator")               \
  X(BooleanOperator, "boolean_operator") X(NotOperator, "not_operator")                 \
  X(ComparisonOperator, "comparison_operator")                                           \
  X(ConditionalExpression, "conditional_expression")                                     \
  X(ParenthesizedExpression, "parenthesized_expression")                                 \
  X(NamedExpression, "named_expression") X(Lambda, "lambda")                            \
  X(ListComprehension, "list_comprehension") X(SetComprehension, "set_comprehension")   \
  X(DictionaryComprehension, "dictionary_comprehension")                                 \
  X(ForInClause, "for_in_clause") X(IfClause, "if_clause")                              \
  X(Tuple, "tuple") X(List, "list") X(Set, "set") X(Dictionary, "dictionary")           \
  X(ExpressionList, "expression_list") X(PatternList, "pattern_list")                   \
  X(TuplePattern, "tuple_pattern") X(ListPattern, "list_pattern")                       \
  X(ListSplatPattern, "list_splat_pattern") X(DictionarySplatPattern, "dictionary_splat_pattern") \
  X(Parameters, "parameters") X(LambdaParameters, "lambda_parameters")                  \
  X(TypedParameter, "typed_parameter") X(DefaultParameter, "default_parameter")         \
  X(TypedDefaultParameter, "typed_default_parameter") X(Type, "type")                   \
  X(PositionalSeparator, "positional_separator")                                         \
  X(Yield, "yield") X(Await, "await") X(String, "string") X(ConcatenatedString, "concatenated_string") \
  X(Integer, "integer") X(Float, "float") X(True, "true") X(False, "false") X(None, "none") \
  X(Ellipsis, "ellipsis") X(AsPattern, "as_pattern") X(AsPatternTarget, "as_pattern_target") \
  X(Error, "ERROR")

enum class NodeKind : uint8_t {
  Other,
#define FXLINT_X(name, str) name,
  FXLINT_NODE_KINDS(FXLINT_X)
#undef FXLINT_X
};

// The Python grammar; linked from the pinned tree-sitter-python sources.
extern "C" const TSLanguage* tree_sitter_python(void);

NodeKind node_kind(TSNode node);
// The kind of a symbol as ts_node_symbol reports it.
NodeKind symbol_kind(TSSymbol symbol);
// The kind of every grammar symbol, indexed by symbol (the error symbol excepted).
std::span<const NodeKind> symbol_kinds();

}  // namespace fxlint
