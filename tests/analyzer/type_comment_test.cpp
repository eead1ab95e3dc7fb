#include "tests/support/catch.h"

#include "analyzer/file_model.h"
#include "analyzer/syntax_tree.h"

using namespace fxlint;

namespace {

const FunctionInfo& only_function(const FileModel& m, const std::string& name) {
  for (const FunctionInfo& f : m.functions) {
    if (f.name == name) return f;
  }
  FAIL("no function " << name);
  return m.functions.front();
}

}  // namespace

TEST_CASE("PEP 484 type comments type the parameters and the return") {
  SyntaxTree tree = SyntaxTree::parse(
      "from typing import List, Optional\n"
      "from torch import Tensor\n"
      "class Head:\n"
      "    def loss(self, logits, targets, scale, extra):\n"
      "        # type: (Tensor, List[Tensor], float, Dict[str, int]) -> Tensor\n"
      "        return logits\n"
      "def helper(x, mask=None):  # not a type comment\n"
      "    # type: (Tensor, Optional[Tensor]) -> List[Tensor]\n"
      "    return [x]\n"
      "def ignored(x):\n"
      "    # type: ignore\n"
      "    return x\n");
  FileModel m = index_file(tree, "m", false, {});
  const FunctionInfo& loss = only_function(m, "loss");
  REQUIRE(loss.comment_parameters.size() == 5);  // `self` left out in the comment
  CHECK(loss.comment_parameters[0] == AnnotationKind::Other);
  CHECK(loss.comment_parameters[1] == AnnotationKind::Tensor);
  CHECK(loss.comment_parameters[2] == AnnotationKind::TensorSequence);
  CHECK(loss.comment_parameters[3] == AnnotationKind::NonTensor);
  CHECK(loss.comment_parameters[4] == AnnotationKind::NonTensor);  // a dict of Python values
  CHECK(loss.returns_tensor);
  const FunctionInfo& helper = only_function(m, "helper");
  REQUIRE(helper.comment_parameters.size() == 2);
  CHECK(helper.comment_parameters[1] == AnnotationKind::OptionalTensor);
  CHECK(helper.returns_tensor);
  CHECK(only_function(m, "ignored").comment_parameters.empty());
}

TEST_CASE("a bare Tensor in a type comment is torch's, as TorchScript reads it") {
  SyntaxTree tree = SyntaxTree::parse(
      "import torch\n"
      "def paste(mask, box, im_h):\n"
      "    # type: (Tensor, Tensor, int) -> Tensor\n"
      "    return mask\n");
  FileModel m = index_file(tree, "m", false, {});
  const FunctionInfo& paste = only_function(m, "paste");
  REQUIRE(paste.comment_parameters.size() == 3);
  CHECK(paste.comment_parameters[1] == AnnotationKind::Tensor);
  CHECK(paste.comment_parameters[2] == AnnotationKind::NonTensor);
  CHECK(paste.returns_tensor);

  SyntaxTree no_torch = SyntaxTree::parse(
      "def paste(mask):\n"
      "    # type: (Tensor) -> Tensor\n"
      "    return mask\n");
  FileModel other = index_file(no_torch, "m", false, {});
  CHECK(only_function(other, "paste").comment_parameters[0] == AnnotationKind::Other);
}
