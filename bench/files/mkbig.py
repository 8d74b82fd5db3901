#!/usr/bin/python3
"""Write a big libsvm file of 20x20 Fashion-MNIST pictures, for reading budgets.

    mkbig.py OUT [ROWS] [IDXDIR]
    mkbig.py OUT-images-idx3-ubyte [ROWS] [IDXDIR]

The 70,000 pictures of Fashion-MNIST (the 60,000 training pictures, then the
10,000 test pictures, from IDXDIR, default /usr/share/datasets/fashion-mnist,
Debian's dataset-fashion-mnist) are taken in 5 positions: as they are, then
shifted by one pixel up, down, left and right (at 28x28, the pixel pushed out
dropped and the row or column let in zero). Each is resized to 20x20 by area
averaging and rounded to a byte as bench/real/mkdata.py does. The rows are the
350,000 pictures in that order (every picture as it is, then every picture
shifted up, ...), repeated from the start until there are ROWS of them
(default 720,000: 350,000 + 350,000 + the first 20,000 again).

A row is written as other tools write libsvm text: the label, then
" index:value" for every non-zero pixel, 1-based, the value byte/255 with 6
significant digits ("%.6g", as svm-scale and C's printf %g write:
0.0823529 for 21). 720,000 rows make a file of about 2.4 GB with about 168
million non-zero values.

When OUT ends in "-images-idx3-ubyte" the same rows are written as an
MNIST-style IDX pair instead (20x20 bytes, the labels beside it as
"-labels-idx1-ubyte"), which mark1 reads as b/255: the same pictures, held
as bytes.

It is a file to read (mark1 fit reads it within a stated --max-memory; see
bench/README.md, "A 720,000-row file within a budget"); it is not committed.
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "real"))
from mkdata import read_idx, resize  # noqa: E402


def shifted(imgs, dy, dx):
    """imgs moved dy rows down and dx columns right, zeros let in."""
    out = np.zeros_like(imgs)
    n, h, w = imgs.shape
    out[:, max(dy, 0):h + min(dy, 0), max(dx, 0):w + min(dx, 0)] = \
        imgs[:, max(-dy, 0):h + min(-dy, 0), max(-dx, 0):w + min(-dx, 0)]
    return out


def write_idx(out, imgs, labels, rows, side):
    """Writes the rows as an IDX images file and its labels file beside it."""
    n = len(imgs)
    parts, lab, written = [], [], 0
    while written < rows:
        for dy, dx in ((0, 0), (-1, 0), (1, 0), (0, -1), (0, 1)):
            k = min(n, rows - written)
            if k <= 0:
                break
            parts.append(resize(shifted(imgs[:k], dy, dx), side))
            lab.append(labels[:k])
            written += k
    x, y = np.concatenate(parts), np.concatenate(lab)
    lpath = out[: -len("-images-idx3-ubyte")] + "-labels-idx1-ubyte"
    for path, magic, dims, data in ((out, 0x803, x.shape, x), (lpath, 0x801, y.shape, y)):
        with open(path + ".tmp", "wb") as f:
            f.write(np.array((magic,) + tuple(dims), dtype=">u4").tobytes())
            f.write(data.astype(np.uint8).tobytes())
        os.replace(path + ".tmp", path)


def main():
    if len(sys.argv) not in (2, 3, 4):
        sys.exit(__doc__)
    out = sys.argv[1]
    rows = int(float(sys.argv[2])) if len(sys.argv) > 2 else 720_000
    src = sys.argv[3] if len(sys.argv) > 3 else "/usr/share/datasets/fashion-mnist"
    p = lambda f: os.path.join(src, f) if os.path.exists(os.path.join(src, f)) else os.path.join(src, f + ".gz")
    imgs = np.concatenate([read_idx(p("train-images-idx3-ubyte")), read_idx(p("t10k-images-idx3-ubyte"))])
    labels = np.concatenate([read_idx(p("train-labels-idx1-ubyte")), read_idx(p("t10k-labels-idx1-ubyte"))])
    n, side = len(imgs), 20
    # tab[k*256 + b] is " k+1:b/255" as "%.6g" writes it
    tab = np.array([f" {k + 1}:{b / 255:.6g}" if b else "" for k in range(side * side) for b in range(256)], dtype=object)
    labs = [str(int(v)) for v in labels]
    if out.endswith("-images-idx3-ubyte"):
        write_idx(out, imgs, labels, rows, side)
        return
    tmp = out + ".tmp"
    written = 0
    with open(tmp, "w", buffering=1 << 22) as f:
        while written < rows:
            for dy, dx in ((0, 0), (-1, 0), (1, 0), (0, -1), (0, 1)):
                if written >= rows:
                    break
                x = resize(shifted(imgs, dy, dx), side).reshape(n, -1)
                for lo in range(0, n, 10_000):
                    chunk = x[lo:lo + 10_000][: rows - written]
                    if len(chunk) == 0:
                        break
                    codes = np.arange(side * side) * 256 + chunk.astype(np.int64)
                    f.write("".join(labs[lo + i] + "".join(tab[c[r != 0]].tolist()) + "\n"
                                    for i, (c, r) in enumerate(zip(codes, chunk))))
                    written += len(chunk)
    os.replace(tmp, out)


if __name__ == "__main__":
    main()
