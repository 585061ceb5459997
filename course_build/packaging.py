"""`course.zip`: what the browser's Python needs, in one deterministic archive.

The `engine` package (`sgd-step` uses it), the `labs`, and the half of `grader`
that runs learner code and reports outputs. Nothing that knows an expected
output goes in: no solutions, no known mistakes, no comparison.
"""

import io
import zipfile

WORKER_SIDE = ("__init__.py", "execute.py", "probes.py", "sandbox.py", "text.py", "facts.py",
               "facts.json", "worker_api.py", "guard.py")


def _add(archive, data, arcname):
    info = zipfile.ZipInfo(arcname, date_time=(2020, 1, 1, 0, 0, 0))
    info.compress_type = zipfile.ZIP_DEFLATED
    archive.writestr(info, data)


def course_zip(engine_dir, grader_dir, labs_dir):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for package in (engine_dir, labs_dir):
            for path in sorted(package.glob("*.py")):
                _add(archive, path.read_bytes(), f"{package.name}/{path.name}")
        for name in WORKER_SIDE:
            _add(archive, (grader_dir / name).read_bytes(), f"grader/{name}")
    return buffer.getvalue()
