"""Suppression comments, seen through the command line."""
from conftest import MODEL


def test_noqa_ignore_and_skip_file(project):
    project.write("noqa.py", MODEL.replace("x.item()", "x.item()  # noqa: FX101"))
    project.write("bare.py", MODEL.replace("x.item()", "x.item()  # noqa"))
    project.write("ignore.py", MODEL.replace("x.item()", "x.item()  # fxlint: ignore[FX101]"))
    project.write("skip.py", "# fxlint: skip-file\n" + MODEL)
    result = project.run("check")
    assert result.returncode == 0, result.stdout


def test_unused_suppression_is_fx901_warning(project):
    project.write("m.py", "x = 1  # noqa: FX101\n")
    result = project.run("check", "--output-format", "concise")
    assert result.returncode == 1
    assert result.stdout.startswith("m.py:1:8: FX901 ")
    github = project.run("check", "--output-format", "github")
    assert github.stdout.startswith("::warning file=m.py,line=1,col=8,")
