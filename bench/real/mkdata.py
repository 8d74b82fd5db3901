#!/usr/bin/python3
"""Build the benchmark's 20x20 data sets in libsvm format from MNIST-style IDX files.

    mkdata.py OUTDIR TRAIN_IMAGES TRAIN_LABELS TEST_IMAGES TEST_LABELS TASK NTRAIN NTEST [CLASSES]

Each 28x28 (or any size) picture is resized to 20x20 by area averaging: output
pixel (r, c) is the mean of the input over the square [r*s, (r+1)*s) x
[c*s, (c+1)*s), s = 28/20, input pixels weighted by their overlap with it
(PIL's BOX filter), then rounded to the nearest byte (ties to even). A feature
is byte/255, written with 17 significant digits so that every reader gets the
same double; zeros are left out. Rows are the first NTRAIN (NTEST) pictures of
the given classes in file order, labels as in the IDX file.

It writes OUTDIR/TASK-train.libsvm, OUTDIR/TASK-test.libsvm and
OUTDIR/TASK.gamma: scikit-learn's gamma="scale", 1 / (features * X.var()), of
the training rows, so that every peer trains with the same gamma.
"""
import gzip
import os
import sys

import numpy as np


def read_idx(path):
    op = gzip.open if path.endswith(".gz") else open
    with op(path, "rb") as f:
        data = f.read()
    if data[0] != 0 or data[1] != 0 or data[2] != 8:
        sys.exit(f"{path}: not an unsigned-byte IDX file")
    nd = data[3]
    dims = [int.from_bytes(data[4 + 4 * k: 8 + 4 * k], "big") for k in range(nd)]
    return np.frombuffer(data, dtype=np.uint8, offset=4 + 4 * nd).reshape(dims)


def box_matrix(n_in, n_out):
    """A (n_out x n_in) matrix whose row r averages input [r*s, (r+1)*s)."""
    s = n_in / n_out
    a = np.zeros((n_out, n_in))
    for r in range(n_out):
        lo, hi = r * s, (r + 1) * s
        for k in range(int(np.floor(lo)), min(int(np.ceil(hi)), n_in)):
            a[r, k] = max(0.0, min(hi, k + 1) - max(lo, k))
        a[r] /= s
    return a


def resize(imgs, side=20):
    n, h, w = imgs.shape
    if (h, w) == (side, side):
        return imgs.copy()
    ar, ac = box_matrix(h, side), box_matrix(w, side)
    out = np.einsum("rh,nhw,cw->nrc", ar, imgs.astype(np.float64), ac)
    return np.clip(np.rint(out), 0, 255).astype(np.uint8)


def pick(imgs, labels, classes, n):
    keep = np.isin(labels, classes) if classes is not None else np.ones(len(labels), bool)
    idx = np.flatnonzero(keep)[:n]
    if len(idx) < n:
        sys.exit(f"only {len(idx)} pictures of classes {classes}, {n} asked for")
    return imgs[idx], labels[idx]


def write(path, x, y):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        for row, lab in zip(x.reshape(len(x), -1), y):
            nz = np.flatnonzero(row)
            f.write(str(int(lab)))
            f.write("".join(f" {k + 1}:{row[k] / 255:.17g}" for k in nz))
            f.write("\n")
    os.replace(tmp, path)


def main():
    if len(sys.argv) not in (9, 10):
        sys.exit(__doc__)
    out, tri, trl, tei, tel, task, ntr, nte = sys.argv[1:9]
    classes = [int(c) for c in sys.argv[9].split(",")] if len(sys.argv) == 10 else None
    xtr, ytr = pick(read_idx(tri), read_idx(trl), classes, int(ntr))
    xte, yte = pick(read_idx(tei), read_idx(tel), classes, int(nte))
    xtr, xte = resize(xtr), resize(xte)
    write(os.path.join(out, task + "-train.libsvm"), xtr, ytr)
    write(os.path.join(out, task + "-test.libsvm"), xte, yte)
    f = xtr.reshape(len(xtr), -1) / 255
    with open(os.path.join(out, task + ".gamma"), "w") as g:
        g.write(f"{1 / (f.shape[1] * f.var()):.17g}\n")


if __name__ == "__main__":
    main()
