#include "tests/support/catch.h"

#include "cli/import_context.h"
#include "temp_dir.h"

using fxlint::cli::imported_files;
using fxlint::cli::imported_modules;
using fxlint::cli::ModuleNamer;
using fxlint::cli::SourceFile;
using fxlint::cli::test::TempDir;

TEST_CASE("import statements name absolute modules, relative ones resolved in the package") {
  std::string text =
      "import os, util.misc as utils\n"
      "from .backbone import build_backbone  # comment\n"
      "from ..util import (box_ops,\n"
      "    misc as m)\n"
      "from util.box_ops import \\\n"
      "    box_iou\n"
      "if True: import a.b; from c import *\n";
  std::vector<std::string> got = imported_modules(text, "pkg.models");
  std::vector<std::string> want = {"os",          "util.misc",        "pkg.models.backbone",
                                   "pkg.models.backbone.build_backbone", "pkg.util",
                                   "pkg.util.box_ops",                  "pkg.util.misc",
                                   "util.box_ops",                      "util.box_ops.box_iou",
                                   "c"};
  CHECK(got == want);
  // Beyond the top package: nothing to resolve.
  CHECK(imported_modules("from ... import x\n", "pkg").empty());
}

TEST_CASE("the files the linted ones import are read, two imports deep, never installed packages") {
  TempDir dir;
  auto model = dir.write("repo/models/detr.py", "from util import box_ops\nimport torch\n");
  dir.write("repo/models/__init__.py", "");
  dir.write("repo/util/__init__.py", "");
  dir.write("repo/util/box_ops.py", "from util.misc import helper\n");
  dir.write("repo/util/misc.py", "from util.deep import x\n");
  dir.write("repo/util/deep.py", "");
  dir.write("repo/torch/__init__.py", "");  // a local package, whatever its name
  dir.write("site-packages/vision/models.py", "from vision import ops\nimport other\n");
  dir.write("site-packages/vision/__init__.py", "");
  dir.write("site-packages/vision/ops.py", "");
  dir.write("site-packages/other/__init__.py", "");
  ModuleNamer namer;
  std::vector<SourceFile> linted = {{model, "from util import box_ops\nimport torch\n", {}}};
  std::vector<std::string> names;
  for (auto& f : imported_files(linted, namer)) names.push_back(f.module_name);
  // `util` and `util.box_ops` are one import away, `util.misc` two; `util.deep` three.
  CHECK(names == std::vector<std::string>{"util", "util.box_ops", "torch", "util.misc"});

  auto installed = dir.path() / "site-packages/vision/models.py";
  std::vector<SourceFile> lib = {{installed, "from vision import ops\nimport other\n", {}}};
  names.clear();
  for (auto& f : imported_files(lib, namer)) names.push_back(f.module_name);
  CHECK(names == std::vector<std::string>{"vision", "vision.ops"});
}
