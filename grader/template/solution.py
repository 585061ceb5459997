def f(x):
    return x ** 3 - 2 * x


def slope_of_f(x):
    """The exact slope of f at x: its derivative."""
    return 3 * x ** 2 - 2


print(slope_of_f(2.0))   # 10.0
