"""`course.zip`: what the browser's Python needs, in one deterministic archive.

The `engine` and `exercises` packages, and each exercise's metadata, starter
and hidden tests. Solutions and known mistakes stay out: the worker never
needs them.
"""

import io
import zipfile

SHIPPED = ("exercise.toml", "starter.py", "tests.py")


def _add(archive, path, arcname):
    info = zipfile.ZipInfo(arcname, date_time=(2020, 1, 1, 0, 0, 0))
    info.compress_type = zipfile.ZIP_DEFLATED
    archive.writestr(info, path.read_bytes())


def course_zip(engine_dir, exercises_dir, exercises):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for package in (engine_dir, exercises_dir):
            for path in sorted(package.glob("*.py")):
                _add(archive, path, f"{package.name}/{path.name}")
        for exercise in exercises.values():
            for name in SHIPPED:
                _add(archive, exercises_dir / exercise.id / name,
                     f"{exercises_dir.name}/{exercise.id}/{name}")
    return buffer.getvalue()
