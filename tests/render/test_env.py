"""The one Jinja environment: override order, strictness, escaping, confinement."""

from __future__ import annotations

from pathlib import Path

import pytest
from jinja2 import TemplateNotFound

from compliance.render.documents import render_report_html, render_stance_md
from compliance.render.env import make_env, md_text, packaged_templates_dir
from compliance.render.errors import RenderError, TemplateOutsideFolder
from tests.render.sample import sample_context


def test_packaged_templates_are_found() -> None:
    folder = packaged_templates_dir()
    names = {"base.html", "report.html", "control.html", "findings.html", "report.css"}
    assert names | {"stance.md.j2"} <= {p.name for p in folder.iterdir()}
    assert (folder / "assets" / "fonts" / "DejaVuSans.ttf").is_file()
    assert (folder / "assets" / "fonts" / "LICENSE").is_file()


def test_workspace_overrides_file_by_file(tmp_path: Path) -> None:
    (tmp_path / "templates").mkdir()
    (tmp_path / "templates" / "report.css").write_text("/* house style */\n")
    html = render_report_html(make_env(tmp_path), sample_context())
    assert "/* house style */" in html
    assert "Print stylesheet for report.html" not in html
    assert "Controls by layer" in html  # report.html still the packaged one


def test_missing_field_fails_loudly(tmp_path: Path) -> None:
    (tmp_path / "templates").mkdir()
    (tmp_path / "templates" / "report.css").write_text("{{ ctx.no_such_field }}")
    with pytest.raises(RenderError) as raised:
        render_report_html(make_env(tmp_path), sample_context())
    assert str(raised.value) == (
        "template report.html: 'compliance.render.context.ReportContext object' "
        "has no attribute 'no_such_field'"
    )


def test_template_syntax_error_names_file_and_line(tmp_path: Path) -> None:
    (tmp_path / "templates").mkdir()
    (tmp_path / "templates" / "stance.md.j2").write_text("line one\n{% if %}\n")
    with pytest.raises(RenderError) as raised:
        render_stance_md(make_env(tmp_path), sample_context())
    where = (tmp_path / "templates" / "stance.md.j2").resolve()
    assert (
        str(raised.value)
        == f"template {where}:2: Expected an expression, got 'end of statement block'"
    )


def test_html_is_autoescaped_and_markdown_is_not(env) -> None:  # type: ignore[no-untyped-def]
    assert env.from_string("{{ x }}").render(x="<b>") == "&lt;b&gt;"
    assert env.get_template("report.html").is_up_to_date
    stance = env.get_template("stance.md.j2")
    assert stance.environment.autoescape(stance.name) is False  # type: ignore[operator]


def test_template_symlink_out_of_the_folder_is_refused(tmp_path: Path) -> None:
    secret = tmp_path / "secret.html"
    secret.write_text("SECRET")
    (tmp_path / "ws" / "templates").mkdir(parents=True)
    (tmp_path / "ws" / "templates" / "report.css").symlink_to(secret)
    with pytest.raises(TemplateOutsideFolder):
        render_report_html(make_env(tmp_path / "ws"), sample_context())


def test_dotdot_template_names_are_not_found(env) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(TemplateNotFound):
        env.get_template("../pyproject.toml")


def test_templates_cannot_reach_python_internals(tmp_path: Path) -> None:
    (tmp_path / "templates").mkdir()
    (tmp_path / "templates" / "report.css").write_text(
        "{{ ''.__class__.__mro__[1].__subclasses__() }}"
    )
    with pytest.raises(RenderError, match="unsafe"):
        render_report_html(make_env(tmp_path), sample_context())


def test_md_text_keeps_model_text_inert() -> None:
    assert md_text("a <img src=x> *b*\n# c [d](e)") == r"a \<img src=x\> \*b\* \# c \[d\](e)"


def test_checkout_without_symlinks_falls_back_to_repo_templates(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from compliance.render import env as env_module

    broken = tmp_path / "_templates"
    broken.write_text("../../templates")  # what git writes when core.symlinks=false
    monkeypatch.setattr(env_module, "_PACKAGED", broken)
    repo_templates = Path(__file__).resolve().parents[2] / "templates"
    assert packaged_templates_dir() == repo_templates.resolve()
