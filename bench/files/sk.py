#!/usr/bin/python3
"""Time one scikit-learn learner on a libsvm file; prints key=value fields.

    sk.py svc|linearsvc|perceptron TRAIN TEST|- GAMMA C|EPOCHS

The one scikit-learn peer of bench/files/run.sh and bench/real/run.sh;
TEST "-" times a fit alone (the growth table). The test rows are read
after fit(), so the peak RSS of a fit does not hold them. The rows are
read with load_svmlight_file and made dense float64 (SVC's fastest input
for these pictures); fit_cpu and predict_cpu are the process
CPU seconds (user + system) of fit() and of predict() on the test rows,
fit_s and predict_s their wall-clock seconds. SVC's kernel cache is 100 MB,
as every peer's here, or SVC_CACHE_MB (200 is scikit-learn's default).
"""
import os
import sys
import time

import numpy as np
from sklearn.datasets import load_svmlight_file
from sklearn.linear_model import Perceptron
from sklearn.svm import SVC, LinearSVC


def main():
    what, train, test, gamma, c = sys.argv[1:6]
    xtr, ytr = load_svmlight_file(train, n_features=400)
    xtr = xtr.toarray()
    if what == "svc":
        m = SVC(kernel="rbf", C=float(c), gamma=float(gamma), cache_size=float(os.environ.get("SVC_CACHE_MB", 100)), tol=1e-3)
    elif what == "linearsvc":
        m = LinearSVC(C=float(c), loss="squared_hinge", dual=True, tol=0.1, max_iter=1000)
    elif what == "perceptron":
        m = Perceptron(max_iter=int(c), tol=None, shuffle=True, random_state=1)
    else:
        sys.exit(f"unknown learner {what}")
    c0, t0 = time.process_time(), time.perf_counter()
    m.fit(xtr, ytr)
    t1, c1 = time.perf_counter(), time.process_time()
    nsv = int(m.n_support_.sum()) if what == "svc" else 0
    out = f"fit_s={t1 - t0:.3f} fit_cpu={c1 - c0:.3f} nSV={nsv}"
    if test != "-":
        xte, yte = load_svmlight_file(test, n_features=400)
        xte = xte.toarray()
        c1, t1 = time.process_time(), time.perf_counter()
        p = m.predict(xte)
        t2, c2 = time.perf_counter(), time.process_time()
        out += f" predict_s={t2 - t1:.3f} predict_cpu={c2 - c1:.3f} test_acc={100 * np.mean(p == yte):.2f}"
    print(out)


main()
