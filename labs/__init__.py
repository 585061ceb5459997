"""The course's labs, one registry that the build, the worker and the page all read.

`LABS` maps a lab's name (its block: `/// lab | <name>`) to its `Lab` (labs/entry.py),
which its module declares as `LAB`: the block's options, the page data and plain
table the build writes from them (numbers from the reference engine), and the
functions the widget calls in the lab interpreter (labs/api.py) when the learner
changes an input.

The widget is found by name: `course_browser/labs/<name>.js`, exporting
`mount(root)`, which course_browser/course.js imports on a page that has the block.
"""

from . import capstone, expression, level_graph, tangent, training

LABS = {
    "level-graph": level_graph.LAB,
    "tangent": tangent.LAB,
    "expression": expression.LAB,
    "training": training.LAB,
    "capstone": capstone.LAB,
}
