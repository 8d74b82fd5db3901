"""Generate the benchmark data and time scikit-learn's Perceptron on it.

Usage: gen_and_time.py gen OUT.svm N D K SEED    writes data (libsvm, labels 0..K-1) and OUT.npz
       gen_and_time.py time OUT.npz EPOCHS REPEAT  times sklearn.linear_model.Perceptron
"""
import sys
import time
import warnings

import numpy as np


def gen(out, n, d, k, seed):
    rng = np.random.default_rng(seed)
    protos = rng.random((k, d)) < 0.2  # each class: a pattern with 20% of pixels on
    y = rng.integers(0, k, n)
    flip = rng.random((n, d)) < 0.1  # 10% of pixels flipped
    X = (protos[y] ^ flip).astype(np.float64)
    noisy = rng.random(n) < 0.05  # 5% of labels replaced, so no epoch is error-free
    y[noisy] = rng.integers(0, k, noisy.sum())
    np.savez(out.replace(".svm", ".npz"), X=X, y=y)
    with open(out, "w") as f:
        for i in range(n):
            nz = np.flatnonzero(X[i])
            f.write(str(y[i]) + " " + " ".join(f"{j + 1}:1" for j in nz) + "\n")


def timeit(npz, epochs, repeat):
    from sklearn.linear_model import Perceptron
    from sklearn.exceptions import ConvergenceWarning

    warnings.simplefilter("ignore", ConvergenceWarning)
    data = np.load(npz)
    X, y = np.ascontiguousarray(data["X"]), data["y"]

    def fit(e):
        best = float("inf")
        for _ in range(repeat):
            clf = Perceptron(max_iter=e, tol=None, shuffle=True, eta0=1.0, random_state=0)
            t = time.perf_counter()
            clf.fit(X, y)
            best = min(best, time.perf_counter() - t)
        return best, clf

    t1, _ = fit(1)
    tn, clf = fit(epochs)
    print(f"sklearn: fit 1 epoch {t1:.4f}s")
    print(f"sklearn: fit {epochs} epochs {tn:.4f}s, training accuracy {clf.score(X, y):.4f}")
    print(f"sklearn: per epoch {(tn - t1) / (epochs - 1):.4f}s")


if __name__ == "__main__":
    if sys.argv[1] == "gen":
        gen(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6]))
    else:
        timeit(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
