"""The MkDocs plugin `course`: registers the course's Markdown blocks and puts the
browser runtime into the built site.

Into `site/assets/course/` it writes the JS/CSS bundle, the worker, the course's
Python files (course_build/packaging.py: `runner.<hash>.json` for every
interpreter, which runs code and reports outputs and knows no answer, and
`labs.<hash>.json`, the reference engine, for the lab interpreter only), and two
JSON files per exercise: its public data (starter, hints, solution: shown only
when the learner asks) and its grading data (cases, expected outputs, known
mistakes' signatures), which the page keeps and never sends to the worker. Pyodide is copied, self-hosted, into
`site/assets/pyodide/`. Nothing is loaded from another origin.
"""

import json
import os
import re
import shutil
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.parse import urlsplit

from mkdocs.config import base
from mkdocs.config import config_options as c
from mkdocs.config.config_options import ExtraScriptValue
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, get_plugin_logger

import engine
import labs
import runner
from grader.catalog import ExerciseError, load_all

from . import csp, precompress
from .blocks import CourseBlocksExtension
from .codewrap import hanging_indent
from .exercise_data import exercise_files, proved_grading_data
from .math import render_math
from .offline import write_service_worker
from .packaging import hashed_name, labs_bundle, runner_bundle
from .search_index import exclude_hidden
from .snapshot import VERIFIED_PYODIDE, SnapshotError, make_snapshot
from .validate import check_course

log = get_plugin_logger(__name__)

PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm",
                 "python_stdlib.zip", "pyodide-lock.json")
ASSETS = "assets/course"
# Every file under these folders has a content hash or a version in its path, so a
# static host may cache it for a year (Netlify / Cloudflare Pages `_headers` format;
# `{base}` is site_url's path, for a site published under one).
CACHE_HEADERS = """{base}/assets/course/*
  Cache-Control: public, max-age=31536000, immutable
{base}/assets/pyodide/*
  Cache-Control: public, max-age=31536000, immutable
"""
BROWSER = Path(__file__).resolve().parent.parent / "course_browser"
TEMPLATES = Path(__file__).resolve().parent / "templates"
UNREAD_BLOCK = re.compile(r"<p>/{3,} *(exercise|question|locked|quiz|level|recap|lab|course-map)\b[^\n]*")


class CourseConfig(base.Config):
    exercises_dir = c.Dir(exists=True, default="exercises")
    pyodide_dir = c.Dir(exists=True, default="node_modules/pyodide")
    runtime_dir = c.Type(str, default="course_browser/dist")
    memory_snapshot = c.Type(bool, default=True)  # a build-time snapshot of Python (course_build/snapshot.py)


class CoursePlugin(BasePlugin[CourseConfig]):
    command = "build"

    def on_startup(self, command, dirty):
        # `mkdocs serve` gets the development policy (live reload) and, with COURSE_PREVIEW=1,
        # the instructor's preview; neither can reach a site `mkdocs build` writes
        self.command = command

    @property
    def serving(self):
        return self.command == "serve"

    def on_config(self, config):
        try:
            self.exercises = load_all(self.config.exercises_dir)
        except ExerciseError as e:
            raise PluginError(f"course: {e}") from None
        self.runtime = Path(self.config.runtime_dir)
        manifest_path = self.runtime / "manifest.json"
        if not manifest_path.is_file():
            raise PluginError(f"course: no JS bundle in {self.runtime}: run `make setup` "
                              "(npm ci, then node course_browser/build.mjs)")
        self.manifest = json.loads(manifest_path.read_text())
        self.files_bytes = runner_bundle(Path(runner.__file__).parent)
        self.files_name = hashed_name("runner", self.files_bytes)
        self.labs_bytes = labs_bundle(Path(engine.__file__).parent, Path(labs.__file__).parent)
        self.labs_name = hashed_name("labs", self.labs_bytes)
        self.grading = proved_grading_data(self.exercises)  # `make build` refuses what `grader prove` refuses
        self.exercise_files, self.exercises_dir_name = exercise_files(self.exercises, self.grading)
        self.pyodide_version = json.loads((Path(self.config.pyodide_dir) / "package.json").read_text())["version"]
        # the classic scripts pages inline (course_browser/inline.mjs), by name
        self.inline = {name: (self.runtime / file).read_text(encoding="utf-8").strip()
                       for name, file in self.manifest["inline"].items()}
        self.runtime_config = {
            "files": self.files_name, "labs": self.labs_name, "worker": self.manifest["worker.js"],
            "exercises": self.exercises_dir_name,
            "pyodide": f"../pyodide/{self.pyodide_version}/pyodide.mjs",
        }
        self.snapshot_job = None
        if self.config.memory_snapshot:
            if self.pyodide_version != VERIFIED_PYODIDE:
                log.warning("course: the memory snapshot uses Pyodide's private API, verified with %s, not %s: "
                            "check it (course_build/snapshot.py) and update VERIFIED_PYODIDE",
                            VERIFIED_PYODIDE, self.pyodide_version)
            # made (or read from its cache) while the pages render; the first page waits for it
            pool = ThreadPoolExecutor(max_workers=1)
            self.snapshot_job = pool.submit(make_snapshot, Path(self.config.pyodide_dir), self.files_bytes)
            pool.shutdown(wait=False)
        self.snapshot = None
        self.preview = self.serving and os.environ.get("COURSE_PREVIEW") == "1"
        if not config.site_url:
            log.warning("course: site_url is unset: canonical links, the sitemap and the 404 page under a "
                        "sub-path need it; build with SITE_URL=https://your.host/path/ (docs/instructors.md)")
        _add_templates(config.theme)
        config.markdown_extensions.append(CourseBlocksExtension(exercises=self.exercises, preview=self.preview))
        config.extra_css.append(f"{ASSETS}/{self.manifest['course.css']}")
        script = ExtraScriptValue(f"{ASSETS}/{self.manifest['course.js']}")
        script.type = "module"
        config.extra_javascript.append(script)
        return config

    def on_files(self, files, config):
        """Check the whole course (course_build/validate.py) before a page is rendered."""
        pages = [(_shown(f.abs_src_path), f.src_uri, Path(f.abs_src_path).read_text(encoding="utf-8"))
                 for f in files.documentation_pages()]
        nav = set(_nav_files(config.nav)) if config.nav else None
        problems = check_course(pages, self.exercises, nav)
        if problems:
            raise PluginError(f"course: {len(problems)} problem(s) in the course:\n  "
                              + "\n  ".join(str(p) for p in problems))
        return files

    def on_post_build(self, config):
        site = Path(config.site_dir)
        assets = site / ASSETS
        if assets.exists():
            shutil.rmtree(assets)
        # the bundler's manifest and the inline scripts are read by the build, not fetched:
        # unhashed, they have no place under a year-long cache name
        unshipped = ("manifest.json", *self.manifest["inline"].values())
        shutil.copytree(self.runtime, assets, ignore=shutil.ignore_patterns(".built", *unshipped))
        (assets / self.files_name).write_bytes(self.files_bytes)
        (assets / self.labs_name).write_bytes(self.labs_bytes)
        folder = assets / self.exercises_dir_name
        folder.mkdir()
        for name, data in self.exercise_files.items():
            (folder / name).write_bytes(data)
        pyodide_root = site / "assets" / "pyodide"
        for old in pyodide_root.glob("*") if pyodide_root.is_dir() else []:
            if old.name != self.pyodide_version:
                shutil.rmtree(old) if old.is_dir() else old.unlink()
        pyodide = pyodide_root / self.pyodide_version
        pyodide.mkdir(parents=True, exist_ok=True)
        for name in PYODIDE_FILES:
            _copy_if_changed(Path(self.config.pyodide_dir) / name, pyodide / name)
        snapshot = self.built_snapshot()
        if snapshot:
            snapshot.write(assets)
        # the Content-Security-Policy into every page, then `_headers`, then sw.js (which hashes both)
        try:
            header_policy = csp.finalize(site, dev=self.serving)
        except csp.PolicyError as e:
            raise PluginError(f"course: {e}") from None
        base = urlsplit(config.site_url or "/").path.rstrip("/")
        (site / "_headers").write_text(csp.headers_block(header_policy, base) + CACHE_HEADERS.format(base=base)
                                       + precompress.HEADERS_NOTE)
        if self.serving:
            # a preview served from memory: no offline copy to go stale between edits, nothing to compress
            (site / "sw.js").unlink(missing_ok=True)
            log.info("course: %s, live reload on", "instructor's preview (every lock open, every answer shown)"
                     if self.preview else "serving")
            return
        write_service_worker(site, BROWSER / "sw.js", header_policy)
        # last: .br and .gz copies of the finished files (sw.js and the pages included)
        packed = precompress.precompress(site)
        log.info("precompressed %d files: %.1f MB -> %.1f MB brotli, %.1f MB gzip (%d compressed now, %.1f s)",
                 packed["files"], packed["raw"] / 1e6, packed["br"] / 1e6, packed["gz"] / 1e6,
                 packed["compressed"], packed["compress_s"])
        log.info("course runtime: %d exercises, %s (%d KB), %s (%d KB)", len(self.exercises), self.files_name,
                 len(self.files_bytes) // 1024, self.labs_name, len(self.labs_bytes) // 1024)

    def built_snapshot(self):
        """The memory snapshot, once it is made; None without one (the worker boots normally)."""
        if self.snapshot_job:
            job, self.snapshot_job = self.snapshot_job, None
            try:
                self.snapshot = job.result()
            except (SnapshotError, OSError, subprocess.SubprocessError) as e:
                log.warning("course: no memory snapshot, Python will boot normally: %s", e)
        return self.snapshot

    def on_page_content(self, html_text, page, config, files):
        """A block whose options do not validate is left as plain text by pymdownx.blocks;
        fail the build instead of shipping a silently broken page. Then render the math,
        mark each code line's indentation (codewrap.py) and what the search index
        must not hold (search_index.py)."""
        match = UNREAD_BLOCK.search(html_text)
        if match:
            raise PluginError(f"course: {page.file.src_path}: this block could not be read "
                              f"(check its options): {match.group(0)[3:80]!r}")
        return exclude_hidden(hanging_indent(render_math(html_text, page.file.src_path)))

    def on_env(self, env, config, files):
        """Every page the theme renders (the 404 page too) declares the policy's placeholder,
        which csp.finalize fills in once the whole site is written."""
        env.globals["course_csp"] = csp.PLACEHOLDER
        return env

    def on_page_context(self, context, page, config, nav):
        """What templates/main.html emits for this page: where the runtime's hashed files are
        (one meta tag, no extra request) and, where the page needs them, the inline scripts
        and the editor's preloads."""
        context["course"] = self.page_tags(page.content, page.url, config)
        return context

    def page_tags(self, content, url, config):
        """The values for a page of this `content` (its HTML) at `url`: the runtime's settings,
        and each inline script the page's blocks want, or None."""
        prefix = "../" * url.count("/") if config.use_directory_urls else ""
        snapshot = self.built_snapshot()
        exercise = 'class="course-exercise"' in content
        wanted = {
            "scripted": "course-locked" in content or "course-recap" in content,
            # Python starts while the page is still parsing (see course_browser/early.js)
            "early": exercise or 'class="course-lab"' in content,
            # saved code into the plain-text editors before the first paint (course_browser/drafts.js)
            "drafts": 'class="course-draft"' in content,
            # Material's search worker starts when the learner searches (course_browser/lazy-search.js)
            "lazy-search": True,
        }
        return {
            "runtime": json.dumps({**self.runtime_config, "base": f"{prefix}{ASSETS}/",
                                   "snapshot": snapshot.config() if snapshot else None}),
            **{name: self.inline[name] if wanted[name] else None for name in wanted},
            # fetch the editor while the page parses, not after course.js asks for it
            "preload": [f"{prefix}{ASSETS}/{self.manifest[key]}" for key in ("editor.js", "exercise.js")]
            if exercise else [],
        }


def _add_templates(theme):
    """Put templates/main.html before the theme's own, after the author's `custom_dir`
    (which may override it): any site the plugin builds gets the course's tags."""
    position = 1 if theme.custom_dir else 0
    if str(TEMPLATES) not in theme.dirs:
        theme.dirs.insert(position, str(TEMPLATES))


def _shown(path):
    """A path as an error message shows it: relative to where the build runs, when it can."""
    try:
        return Path(path).resolve().relative_to(Path.cwd()).as_posix()
    except ValueError:
        return str(path)


def _nav_files(nav):
    """Every page file a `nav` names, however nested."""
    for item in nav if isinstance(nav, list) else [nav]:
        if isinstance(item, dict):
            for value in item.values():
                yield from _nav_files(value)
        elif isinstance(item, list):
            yield from _nav_files(item)
        elif isinstance(item, str) and not item.startswith(("http://", "https://")):
            yield item


def _copy_if_changed(source, target):
    if not source.is_file():
        raise PluginError(f"course: missing {source}: run `npm ci`")
    if target.is_file() and target.stat().st_size == source.stat().st_size \
            and target.stat().st_mtime >= source.stat().st_mtime:
        return
    shutil.copy2(source, target)
