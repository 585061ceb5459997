"""Markdown blocks of the course (pymdownx.blocks), registered by one extension.

    /// exercise | mul-backward      a graded code exercise
    /// question | dl-dd             a number or choice question
    /// locked | dl-dd               content that opens once `dl-dd` is answered
    /// quiz | autograd              the skip-level test
    /// level | autograd             the level's header: stars, progress, reset
    /// recap                        opens when the level is cleared
    /// lab | level-graph            the step-through computation graph
    /// course-map                   the home page's list of levels

Each block emits plain HTML with data-* attributes; the browser runtime
(course_browser/) brings them to life. Without JavaScript every text
still reads in full.
"""

from pymdownx.blocks import BlocksExtension

from .exercise import Exercise
from .lab import Lab
from .progress import CourseMap, Level, Locked, Quiz, Recap
from .question import Question

BLOCKS = (Exercise, Question, Locked, Quiz, Level, Recap, Lab, CourseMap)


class CourseBlocksExtension(BlocksExtension):
    def __init__(self, exercises=None, preview=False, **kwargs):
        self.exercises = exercises or {}
        self.preview = preview  # `make preview` only (see course_build/preview.py): never in a built site
        super().__init__(**kwargs)

    def extendMarkdownBlocks(self, md, block_mgr):
        for block in BLOCKS:
            block_mgr.register(block, {"exercises": self.exercises, "preview": self.preview})
