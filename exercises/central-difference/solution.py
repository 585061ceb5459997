def f(x):
    return 3 * x**2 - 4 * x + 5


def slope(f, x, h=1e-6):
    """How much f moves per unit of x near x, measured by nudging x both ways."""
    return (f(x + h) - f(x - h)) / (2 * h)


print(slope(f, 3.0))   # the tangent's slope at x = 3
