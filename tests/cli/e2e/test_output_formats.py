"""Each --output-format on a real run: the fields users and tools read."""
import json

from conftest import MODEL, SYNTAX_ERROR


def make(project):
    project.write("pkg/model.py", MODEL)
    project.write("pkg/bad.py", SYNTAX_ERROR)


def test_json_fields_match_ruff(project):
    make(project)
    result = project.run("check", "--output-format", "json")
    assert result.returncode == 1
    items = json.loads(result.stdout)
    assert [i["code"] for i in items] == ["FX900", "FX101"]
    item = items[1]
    assert set(item) >= {"code", "message", "filename", "location", "end_location", "fix", "url", "noqa_row"}
    assert item["filename"] == str(project.root / "pkg" / "model.py")
    assert item["location"] == {"row": 6, "column": 16}
    assert item["end_location"] == {"row": 6, "column": 24}
    assert item["noqa_row"] == 6
    assert item["url"] is None  # the docs are in the binary: `fxlint rule FX101`
    assert item["severity"] == "error"


def test_json_with_no_diagnostics_is_an_empty_array(project):
    project.write("ok.py", "x = 1\n")
    result = project.run("check", "--output-format", "json")
    assert result.returncode == 0
    assert json.loads(result.stdout) == []


def test_sarif(project):
    make(project)
    result = project.run("check", "--output-format", "sarif")
    assert result.returncode == 1
    sarif = json.loads(result.stdout)
    assert sarif["version"] == "2.1.0"
    run = sarif["runs"][0]
    rules = run["tool"]["driver"]["rules"]
    assert "FX101" in [r["id"] for r in rules]
    fx101 = next(r for r in rules if r["id"] == "FX101")
    assert fx101["name"] == "tensor-item"
    assert fx101["help"]["markdown"]
    results = run["results"]
    assert [r["ruleId"] for r in results] == ["FX900", "FX101"]
    location = results[1]["locations"][0]["physicalLocation"]
    assert location["artifactLocation"]["uri"] == (project.root / "pkg" / "model.py").as_uri()
    assert location["region"]["startLine"] == 6
    assert location["region"]["startColumn"] == 16
    assert results[1]["level"] == "error"


def test_github_annotations(project):
    make(project)
    result = project.run("check", "--output-format", "github")
    assert result.returncode == 1
    lines = result.stdout.splitlines()
    assert lines[1].startswith("::error file=pkg/model.py,line=6,col=16,endLine=6,endColumn=24,title=FX101::")
    assert len(lines) == 2


def test_concise_one_line_per_diagnostic_then_summary(project):
    make(project)
    result = project.run("check", "--output-format=concise")
    lines = result.stdout.splitlines()
    assert len(lines) == 3
    assert lines[1].startswith("pkg/model.py:6:16: FX101 ")
    assert lines[2] == "Found 2 errors."


def test_columns_count_characters_not_bytes(project):
    project.write("m.py", MODEL.replace("return x.item()", "é = 'ü'; return x.item()"))
    items = json.loads(project.run("check", "--output-format", "json").stdout)
    assert items[0]["location"] == {"row": 6, "column": 25}


def test_color_only_when_asked_or_on_a_terminal(project):
    make(project)
    plain = project.run("check")
    assert "\x1b[" not in plain.stdout
    colored = project.run("check", env={"FORCE_COLOR": "1"})
    assert "\x1b[1;31mFX101\x1b[0m" in colored.stdout
    assert "\x1b[" not in project.run("check", env={"FORCE_COLOR": "1", "NO_COLOR": "1"}).stdout
    assert "\x1b[" not in project.run("check", "--output-format", "json", env={"FORCE_COLOR": "1"}).stdout


def test_output_file(project):
    make(project)
    result = project.run("check", "--output-format", "sarif", "-o", "report/fxlint.sarif")
    assert result.returncode == 2  # the directory does not exist
    assert "cannot write the report to report/fxlint.sarif" in result.stderr
    (project.root / "report").mkdir()
    result = project.run("check", "--output-format", "sarif", "--output-file", "report/fxlint.sarif")
    assert result.returncode == 1
    assert result.stdout == ""
    sarif = json.loads((project.root / "report" / "fxlint.sarif").read_text())
    assert len(sarif["runs"][0]["results"]) == 2
