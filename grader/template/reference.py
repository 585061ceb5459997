# The answer key: the expected outputs come from here, never from the [solution].
# Here the reference engine differentiates f, so a wrong solution cannot prove.
from engine import Value


def slope_of_f(x):
    x = Value(x)
    y = x**3 - 2 * x
    y.backward()
    return x.grad
