"""The course's labs: one module per `/// lab | <name>` block, each a Python model
the page shows (its default numbers computed at build time) and the browser's
worker recomputes when the learner changes an input. `LABS` is the registry the
build reads: a lab's name, and the function that gives its page data.
"""

from . import capstone, expression, level_graph, tangent, training

LABS = {
    "level-graph": level_graph,
    "tangent": tangent,
    "expression": expression,
    "training": training,
    "capstone": capstone,
}
