"""The command line itself: help, version, rule docs, usage errors (status 2)."""
import json


def test_version_and_help(project):
    version = project.run("--version")
    assert version.returncode == 0
    assert version.stdout.startswith("fxlint ")
    help_ = project.run("help")
    assert help_.returncode == 0
    assert "check" in help_.stdout and "rule" in help_.stdout
    check_help = project.run("check", "--help")
    assert check_help.returncode == 0
    for option in ("--target", "--select", "--output-format", "--stdin-filename", "--jobs", "--statistics"):
        assert option in check_help.stdout
    assert project.run("help", "check").stdout == check_help.stdout


def test_unknown_command_and_option_are_usage_errors(project):
    for args in (["lint"], ["check", "--frobnicate"], ["check", "--target", "tensorrt"],
                 ["check", "--output-format", "xml"], ["check", "--select", "FX999"],
                 ["check", "--jobs", "many"], ["rule"], ["rule", "FX999"], []):
        result = project.run(*args)
        assert result.returncode == 2, args
        assert result.stdout == ""
        assert result.stderr.strip(), args
    bad = project.run("check", "--target", "tensorrt")
    assert "possible values: fx2onnx, dynamo, export" in bad.stderr
    # ruff's spelling of fixing from check points at the fix command.
    ruffish = project.run("check", "--fix", ".")
    assert ruffish.returncode == 2 and "`fxlint fix --apply` writes the fixes" in ruffish.stderr


def test_rule_prints_its_doc(project):
    result = project.run("rule", "FX101")
    assert result.returncode == 0
    assert "FX101" in result.stdout and "tensor-item" in result.stdout
    assert "Severity: fx2onnx error, dynamo error, export warning" in result.stdout
    assert project.run("rule", "tensor-item").stdout == result.stdout
    assert "dynamo off" in project.run("rule", "FX104").stdout


def test_rule_all_lists_the_catalog(project):
    result = project.run("rule", "--all")
    assert result.returncode == 0
    lines = result.stdout.splitlines()
    assert lines[0].split() == ["CODE", "NAME", "FX2ONNX", "DYNAMO", "EXPORT", "SUMMARY"]
    rows = {line.split()[0]: line.split()[1:5] for line in lines[1:]}
    assert rows["FX104"] == ["tensor-assert", "error", "off", "error"]
    assert rows["FX101"] == ["tensor-item", "error", "error", "warning"]
    assert rows["FX501"][3] == "off"
    assert len(rows) == 24
    assert rows["FX106"] == ["data-dependent-condition", "error", "off", "error"]
    listed = json.loads(project.run("rule", "--all", "--output-format", "json").stdout)
    assert [r["code"] for r in listed] == list(rows)
