"""The reference autograd engine of the course.

It is the oracle that grades learners, and the engine the labs (`labs/`) and
the training level run in the browser (Pyodide ships it as a zip). Pure Python,
no imports beyond the standard library.
"""

from .engine import Value
from .gradcheck import check_gradients, finite_difference
from .graph import backward_steps, to_graph
from .nn import MLP, Layer, Module, Neuron

__all__ = ["Value", "Module", "Neuron", "Layer", "MLP", "to_graph",
           "finite_difference", "check_gradients", "backward_steps"]
