"""Which files `check` walks into, seen from the command line."""
from conftest import SYNTAX_ERROR


def listed(result):
    return sorted({line.split(":")[0] for line in result.stdout.splitlines() if ": FX" in line})


def test_gitignore_nested_and_negated(project):
    project.write(".gitignore", "generated/\n*_tmp.py\n")
    project.write("pkg/.gitignore", "!keep_tmp.py\n")
    for name in ("a.py", "generated/g.py", "x_tmp.py", "pkg/keep_tmp.py", "pkg/drop.py"):
        project.write(name, SYNTAX_ERROR)
    result = project.run("check", "--output-format", "concise")
    assert listed(result) == ["a.py", "pkg/drop.py", "pkg/keep_tmp.py"]
    everything = project.run("check", "--output-format", "concise", "--no-respect-gitignore")
    assert listed(everything) == ["a.py", "generated/g.py", "pkg/drop.py", "pkg/keep_tmp.py", "x_tmp.py"]


def test_pyi_files_and_other_extensions(project):
    project.write("stub.pyi", SYNTAX_ERROR)
    project.write("script.txt", SYNTAX_ERROR)
    project.write("tool", SYNTAX_ERROR)
    assert listed(project.run("check", "--output-format", "concise")) == ["stub.pyi"]
    # Named explicitly, any file is linted as Python.
    assert listed(project.run("check", "--output-format", "concise", "tool")) == ["tool"]


def test_default_excludes(project):
    for d in (".venv", "venv", "build", "dist", "node_modules", "__pycache__", ".git", ".tox"):
        project.write(f"{d}/x.py", SYNTAX_ERROR)
    project.write("src/ok.py", SYNTAX_ERROR)
    assert listed(project.run("check", "--output-format", "concise")) == ["src/ok.py"]
