def gradients(a, b, c):
    e = a * b
    d = e + c
    L = d ** 2
    dL_dL = 1.0
    dL_dd = 2 * d * dL_dL     # local factor of d²: 2d
    dL_de = 1 * dL_dd              # local factor of e + c, for e: 1
    dL_dc = 1 * dL_dd              # local factor of e + c, for c: 1
    dL_da = b              # local factor of a·b, for a: b
    dL_db = a              # local factor of a·b, for b: a
    return dL_da, dL_db, dL_dc


print(gradients(2.0, -3.0, 10.0))
