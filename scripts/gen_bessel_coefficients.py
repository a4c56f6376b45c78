"""Generates python/sprout/ops/function/_bessel_coefficients.py: Chebyshev expansions for the Bessel functions
of orders 0 and 1 (ops.bessel_j0 ... bessel_k1e, python/sprout/ops/function/math_bessel_func.py).

Each piece is a smooth function f of a mapped variable t in [-1, 1]; the Bessel function is f combined with
elementary functions (exp, log, sqrt, sin, cos) that carry its growth, decay, singularity or oscillation:
  a = |x|                                    t                 f
  I0, I1  a <= 8                             a/4 - 1           e^-a I0(a),      e^-a I1(a) / a
          a > 8                              16/a - 1          sqrt(a) e^-a I0(a), sqrt(a) e^-a I1(a)
  K0, K1  a <= 2                             a^2/2 - 1         K0(a) + log(a/2) I0(a),  (K1(a) - 1/a - log(a/2) I1(a)) / a
          a > 2                              4/a - 1           sqrt(a) e^a K0(a), sqrt(a) e^a K1(a)
  J, Y    a <= 8                             a^2/32 - 1        J0(a), J1(a)/a, Y0(a) - 2/pi log(a) J0(a),
                                                               (Y1(a) - 2/pi (log(a) J1(a) - 1/a)) / a
          a > 8 (Hankel's modulus form)      2 (8/a)^2 - 1     P_n(a), Q_n(a) / (8/a), n = 0, 1, where
          J_n = sqrt(2/(pi a)) (P_n cos chi - Q_n sin chi), Y_n = sqrt(2/(pi a)) (P_n sin chi + Q_n cos chi),
          chi = a - (2n + 1) pi / 4
Each f is interpolated at Chebyshev points with 40-digit mpmath values; the expansion is cut where every later
coefficient is below 1e-17 of f's smallest magnitude on the interval (of its largest for the oscillating J and
Y pieces, whose error is absolute near their zeros). Evaluated in float64 by Clenshaw's recurrence.

Run from the repository root with any Python that has mpmath: python3 scripts/gen_bessel_coefficients.py
"""
import mpmath

mpmath.mp.dps = 40
OUT = "python/sprout/ops/function/_bessel_coefficients.py"
NODES = 90


def _hankel(n, a):
    chi = a - (2 * n + 1) * mpmath.pi / 4
    j, y = mpmath.besselj(n, a), mpmath.bessely(n, a)
    scale = mpmath.sqrt(mpmath.pi * a / 2)
    return scale * (j * mpmath.cos(chi) + y * mpmath.sin(chi)), scale * (y * mpmath.cos(chi) - j * mpmath.sin(chi))


# name: (t -> a, a -> f, relative?)
PIECES = {
    "I0_SMALL": (lambda t: 4 * (t + 1), lambda a: mpmath.exp(-a) * mpmath.besseli(0, a), True),
    "I0_LARGE": (lambda t: 16 / (t + 1), lambda a: mpmath.sqrt(a) * mpmath.exp(-a) * mpmath.besseli(0, a), True),
    "I1_SMALL": (lambda t: 4 * (t + 1), lambda a: mpmath.exp(-a) * mpmath.besseli(1, a) / a, True),
    "I1_LARGE": (lambda t: 16 / (t + 1), lambda a: mpmath.sqrt(a) * mpmath.exp(-a) * mpmath.besseli(1, a), True),
    "K0_SMALL": (lambda t: mpmath.sqrt(2 * (t + 1)),
                 lambda a: mpmath.besselk(0, a) + mpmath.log(a / 2) * mpmath.besseli(0, a), True),
    "K1_SMALL": (lambda t: mpmath.sqrt(2 * (t + 1)),
                 lambda a: (mpmath.besselk(1, a) - 1 / a - mpmath.log(a / 2) * mpmath.besseli(1, a)) / a, True),
    "K0_LARGE": (lambda t: 4 / (t + 1), lambda a: mpmath.sqrt(a) * mpmath.exp(a) * mpmath.besselk(0, a), True),
    "K1_LARGE": (lambda t: 4 / (t + 1), lambda a: mpmath.sqrt(a) * mpmath.exp(a) * mpmath.besselk(1, a), True),
    "J0_SMALL": (lambda t: mpmath.sqrt(32 * (t + 1)), lambda a: mpmath.besselj(0, a), False),
    "J1_SMALL": (lambda t: mpmath.sqrt(32 * (t + 1)), lambda a: mpmath.besselj(1, a) / a, False),
    "Y0_SMALL": (lambda t: mpmath.sqrt(32 * (t + 1)),
                 lambda a: mpmath.bessely(0, a) - 2 / mpmath.pi * mpmath.log(a) * mpmath.besselj(0, a), False),
    "Y1_SMALL": (lambda t: mpmath.sqrt(32 * (t + 1)),
                 lambda a: (mpmath.bessely(1, a) - 2 / mpmath.pi * (mpmath.log(a) * mpmath.besselj(1, a) - 1 / a))
                 / a, False),
    "P0_LARGE": (lambda t: 8 / mpmath.sqrt((t + 1) / 2), lambda a: _hankel(0, a)[0], True),
    "Q0_LARGE": (lambda t: 8 / mpmath.sqrt((t + 1) / 2), lambda a: _hankel(0, a)[1] * a / 8, True),
    "P1_LARGE": (lambda t: 8 / mpmath.sqrt((t + 1) / 2), lambda a: _hankel(1, a)[0], True),
    "Q1_LARGE": (lambda t: 8 / mpmath.sqrt((t + 1) / 2), lambda a: _hankel(1, a)[1] * a / 8, True),
}


def chebyshev(a_of_t, f, relative):
    ts = [mpmath.cos(mpmath.pi * (j + mpmath.mpf(1) / 2) / NODES) for j in range(NODES)]
    values = [f(a_of_t(t)) for t in ts]
    coefficients = []
    for k in range(NODES):
        c = 2 * mpmath.fsum(v * mpmath.cos(mpmath.pi * k * (j + mpmath.mpf(1) / 2) / NODES)
                            for j, v in enumerate(values)) / NODES
        coefficients.append(c / 2 if k == 0 else c)
    scale = min(abs(v) for v in values) if relative else max(abs(v) for v in values)
    degree = max(k for k, c in enumerate(coefficients) if abs(c) > 1e-17 * scale)
    if degree > NODES - 10:
        raise RuntimeError("the expansion does not converge within the nodes")
    return [float(c) for c in coefficients[:degree + 1]]


def main():
    lines = ['"""Chebyshev coefficients (lowest order first) of the Bessel function pieces. Generated by',
             'scripts/gen_bessel_coefficients.py, which says what each piece is: do not edit."""', ""]
    for name, (a_of_t, f, relative) in PIECES.items():
        coefficients = chebyshev(a_of_t, f, relative)
        lines.append(f"{name} = (")
        for i in range(0, len(coefficients), 3):
            lines.append("    " + " ".join(f"{c!r}," for c in coefficients[i:i + 3]))
        lines.append(")")
    with open(OUT, "w") as out:
        out.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
