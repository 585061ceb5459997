"""`course.zip`: what the browser's Python needs, in one deterministic archive.

The `engine` and `exercises` packages, and each exercise's metadata (as JSON),
starter and hidden tests. Solutions and known mistakes stay out: the worker never
needs them.
"""

import io
import zipfile

from exercises.catalog import shipped_files


def _add(archive, data, arcname):
    info = zipfile.ZipInfo(arcname, date_time=(2020, 1, 1, 0, 0, 0))
    info.compress_type = zipfile.ZIP_DEFLATED
    archive.writestr(info, data)


def course_zip(engine_dir, exercises_dir, exercises):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for package in (engine_dir, exercises_dir):
            for path in sorted(package.glob("*.py")):
                _add(archive, path.read_bytes(), f"{package.name}/{path.name}")
        for exercise in exercises.values():
            for name, text in shipped_files(exercise).items():
                _add(archive, text.encode("utf-8"), f"{exercises_dir.name}/{exercise.id}/{name}")
    return buffer.getvalue()
