"""The one error a course block raises: the build stops with this message."""

from mkdocs.exceptions import PluginError


class CourseBlockError(PluginError):
    pass
