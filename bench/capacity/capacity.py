"""Reads capacity's problems (one JSON object a line) and decides, by linear
programming (scipy's HiGHS), whether each R-unit's dichotomy is linearly
separable through the origin: is there w with y_i * (sum of w over the
A-units card i fires in the set) >= 1 for every card? It also counts the
two obstacles that make a dichotomy impossible whatever the number of
cards: cards that fire no A-unit of the set (their sum is 0, no lamp), and
pairs of cards with the same code but different wanted bits. One line per
R-unit, then a summary."""
import json
import sys

import numpy as np
from scipy.optimize import linprog

rows = []
for line in sys.stdin:
    p = json.loads(line)
    n, d = len(p["y"]), p["units"]
    A = np.zeros((n, d))
    for i, x in enumerate(p["x"]):
        A[i, x] = 1.0
    y = np.array(p["y"], float)
    empty = sum(1 for x in p["x"] if not x)
    codes = {}
    clash = 0
    for x, yi in zip(p["x"], p["y"]):
        k = tuple(x)
        if k in codes and codes[k] != yi:
            clash += 1
        codes.setdefault(k, yi)
    res = linprog(np.zeros(d), A_ub=-(y[:, None] * A), b_ub=-np.ones(n),
                  bounds=[(None, None)] * d, method="highs")
    sep = res.status == 0
    # Without the cards that fire nothing, is the rest separable?
    keep = A.sum(1) > 0
    res2 = linprog(np.zeros(d), A_ub=-(y[keep, None] * A[keep]), b_ub=-np.ones(keep.sum()),
                   bounds=[(None, None)] * d, method="highs")
    rows.append((p["seed"], p["r_unit"], d, n, empty, clash, sep, res2.status == 0))
    print(f"seed {p['seed']} R{p['r_unit']}: {n} cards, {d} A-units, {empty} cards fire none, "
          f"{clash} code clashes, separable: {'yes' if sep else 'no'}"
          f"{'' if sep else ', without the silent cards: ' + ('yes' if res2.status == 0 else 'no')}")
print(f"\n{sum(r[6] for r in rows)} of {len(rows)} dichotomies separable; "
      f"{sum(1 for r in rows if r[4] > 0)} have cards that fire no A-unit of the set; "
      f"{sum(1 for r in rows if r[5] > 0)} have code clashes; "
      f"{sum(1 for r in rows if not r[6] and r[7])} become separable without the silent cards")
