"""The mkdocs.yml of a small course that a test builds in its own folder: the real
course plugin, this checkout's Pyodide and runtime bundle, the site's theme and
Markdown extensions, so that what the test proves holds for the real build."""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def course_config(tmp_path, docs, exercises, nav=None):
    """Write tmp_path/mkdocs.yml for the pages in `docs` and the exercise folders in
    `exercises` (with `nav`, a list of page files, if given); return its path."""
    nav_yaml = "" if nav is None else "nav:\n" + "".join(f"  - {n}\n" for n in nav)
    config = tmp_path / "mkdocs.yml"
    config.write_text(f"""site_name: t
site_url: http://127.0.0.1/
docs_dir: {docs}
theme: {{name: material, font: false}}
{nav_yaml}plugins:
  - course:
      exercises_dir: {exercises}
      pyodide_dir: {ROOT / 'node_modules/pyodide'}
      runtime_dir: {ROOT / 'course_browser/dist'}
markdown_extensions: [admonition, attr_list]
""")
    return config
