#!/usr/bin/python3
"""Write the benchmark's 20x20 pictures as users write data files.

    mkfiles.py OUTDIR TRAIN_IMAGES TRAIN_LABELS TEST_IMAGES TEST_LABELS TASK NTRAIN NTEST [CLASSES]

The pictures are bench/real/mkdata.py's (each resized to 20x20 by area
averaging and rounded to bytes; the first NTRAIN / NTEST of the given
classes, or the pictures START:END of them when a count is written so),
the features byte/255. Each set is written four ways:

  TASK-train.6g.libsvm   libsvm text, 6 significant digits ("%.6g", as
                         svm-scale, C's printf %g and most tools write)
  TASK-train.sk.libsvm   scikit-learn's dump_svmlight_file of the float64
                         array (its own number format)
  TASK-train.csv         CSV with a header, 6 decimals ("%.6f"), label last
  TASK-train.images-idx3-ubyte   the pictures as MNIST's IDX files (bytes,
  TASK-train.labels-idx1-ubyte   uncompressed; mark1 reads pixel b as b/255)
  TASK.gamma             scikit-learn's gamma="scale" of the 6-digit training
                         values, given to every kernel SVM

and the same for -test.
"""
import os
import sys

import numpy as np
from sklearn.datasets import dump_svmlight_file

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "real"))
from mkdata import pick, read_idx, resize  # noqa: E402


def write_6g(path, x, y):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        for row, lab in zip(x, y):
            nz = np.flatnonzero(row)
            f.write(str(int(lab)))
            f.write("".join(f" {k + 1}:{row[k]:.6g}" for k in nz))
            f.write("\n")
    os.replace(tmp, path)


def write_csv(path, x, y):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write(",".join(f"p{k + 1}" for k in range(x.shape[1])) + ",label\n")
        for row, lab in zip(x, y):
            f.write(",".join(f"{v:.6f}" for v in row) + f",{int(lab)}\n")
    os.replace(tmp, path)


def write_idx(base, imgs, y):
    """Writes imgs (n × rows × cols bytes) and labels y as an IDX pair."""
    n, rows, cols = imgs.shape
    for name, magic, dims, data in (
        ("images-idx3-ubyte", 0x803, (n, rows, cols), imgs.astype(np.uint8)),
        ("labels-idx1-ubyte", 0x801, (n,), np.asarray(y, dtype=np.uint8)),
    ):
        path = f"{base}.{name}"
        with open(path + ".tmp", "wb") as f:
            f.write(np.array((magic,) + dims, dtype=">u4").tobytes())
            f.write(data.tobytes())
        os.replace(path + ".tmp", path)


def take(imgs, labels, classes, count):
    """The first COUNT pictures of the classes, or pictures START:END of them."""
    start, _, end = count.rpartition(":")
    x, y = pick(imgs, labels, classes, int(end))
    return x[int(start or 0):], y[int(start or 0):]


def main():
    if len(sys.argv) not in (9, 10):
        sys.exit(__doc__)
    out, tri, trl, tei, tel, task, ntr, nte = sys.argv[1:9]
    classes = [int(c) for c in sys.argv[9].split(",")] if len(sys.argv) == 10 else None
    xtr, ytr = take(read_idx(tri), read_idx(trl), classes, ntr)
    xte, yte = take(read_idx(tei), read_idx(tel), classes, nte)
    for part, imgs, y in (("train", resize(xtr), ytr), ("test", resize(xte), yte)):
        x = imgs.reshape(len(imgs), -1) / 255
        base = os.path.join(out, f"{task}-{part}")
        write_6g(base + ".6g.libsvm", x, y)
        dump_svmlight_file(x, y, base + ".sk.libsvm", zero_based=False)
        write_csv(base + ".csv", x, y)
        write_idx(base, imgs, y)
        if part == "train":
            x6 = np.array([[float(f"{v:.6g}") for v in row] for row in x])
            with open(os.path.join(out, task + ".gamma"), "w") as g:
                g.write(f"{1 / (x6.shape[1] * x6.var()):.17g}\n")


if __name__ == "__main__":
    main()
