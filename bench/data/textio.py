"""Vectorised writers for CSV and LIBSVM text, so that generating ~2 GB of data takes seconds.

Python-level loops (or numpy.savetxt, which is one) format about a million numbers a second;
the synthetic sets hold tens of millions. Here each number becomes a fixed-width block of
ASCII bytes plus a mask of the bytes that are really printed (no leading zeros, no trailing
fractional zeros, no "-0"); the masked bytes of a whole chunk are then written in one call.
Values are printed with a fixed number of decimals, trailing zeros stripped.
"""

import numpy as np

_ZERO = ord("0")


def _digits(ints, width):
    """Right-aligned decimal digits of non-negative ints: (chars, mask), both (..., width)."""
    chars = np.empty(ints.shape + (width,), dtype=np.uint8)
    mask = np.empty(ints.shape + (width,), dtype=bool)
    power = 1
    for k in range(width):
        col = width - 1 - k
        chars[..., col] = _ZERO + (ints // power) % 10
        mask[..., col] = (ints >= power) | (k == 0)
        power *= 10
    return chars, mask


def _fraction(frac, decimals):
    """'.' plus the fractional digits, trailing zeros (and a bare '.') masked out."""
    chars = np.empty(frac.shape + (decimals + 1,), dtype=np.uint8)
    mask = np.empty(frac.shape + (decimals + 1,), dtype=bool)
    chars[..., 0] = ord(".")
    mask[..., 0] = frac != 0
    for i in range(1, decimals + 1):
        power = 10 ** (decimals - i)
        chars[..., i] = _ZERO + (frac // power) % 10
        # digit i is printed while some digit at or after it is non-zero
        mask[..., i] = (frac % (power * 10)) != 0
    return chars, mask


def number_field(values, decimals):
    """Fixed-decimal rendering of floats (any shape): (chars, mask), last axis = bytes."""
    scale = 10**decimals
    scaled = np.rint(np.abs(values) * scale).astype(np.int64)
    int_part = scaled // scale
    frac_part = scaled % scale
    width = max(1, len(str(int(int_part.max()))) if int_part.size else 1)
    sign_chars = np.full(values.shape + (1,), ord("-"), dtype=np.uint8)
    sign_mask = ((values < 0) & (scaled != 0))[..., None]
    int_chars, int_mask = _digits(int_part, width)
    parts = [(sign_chars, sign_mask), (int_chars, int_mask)]
    if decimals > 0:
        parts.append(_fraction(frac_part, decimals))
    return _join(parts)


def integer_field(values):
    """Signed integers (any shape): (chars, mask)."""
    values = np.asarray(values, dtype=np.int64)
    width = max(1, len(str(int(np.abs(values).max()))) if values.size else 1)
    sign_chars = np.full(values.shape + (1,), ord("-"), dtype=np.uint8)
    sign_mask = (values < 0)[..., None]
    int_chars, int_mask = _digits(np.abs(values), width)
    return _join([(sign_chars, sign_mask), (int_chars, int_mask)])


def const_field(shape, text, mask=None):
    """The same text in every cell of `shape`; `mask` (shape) hides it where False."""
    raw = np.frombuffer(text.encode(), dtype=np.uint8)
    chars = np.broadcast_to(raw, tuple(shape) + (len(raw),)).copy()
    if mask is None:
        full = np.ones(tuple(shape) + (len(raw),), dtype=bool)
    else:
        full = np.repeat(np.asarray(mask)[..., None], len(raw), axis=-1)
    return chars, full


def _join(parts):
    chars = np.concatenate([c for c, _ in parts], axis=-1)
    mask = np.concatenate([m for _, m in parts], axis=-1)
    return chars, mask


def _emit(out, parts):
    chars, mask = _join(parts)
    out.write(chars[mask].tobytes())


def label_field(labels, classification, decimals=6):
    if classification:
        return integer_field(labels)
    return number_field(np.asarray(labels, dtype=np.float64), decimals)


def write_csv(path, X, y, classification, decimals, chunk=20000):
    """Header `label,f1..fd`, then one row per sample, label first."""
    n, d = X.shape
    with open(path, "wb") as out:
        header = ["label"] + [f"f{j + 1}" for j in range(d)]
        out.write((",".join(header) + "\n").encode())
        for start in range(0, n, chunk):
            Xc = X[start : start + chunk]
            rows = Xc.shape[0]
            lab = label_field(y[start : start + chunk], classification)
            cells = number_field(Xc, decimals)  # (rows, d, w)
            seps = np.full((rows, d, 1), ord(","), dtype=np.uint8)
            seps[:, -1, 0] = ord("\n")
            comma = const_field((rows,), ",")
            cell_chars, cell_mask = _join([cells, (seps, np.ones_like(seps, dtype=bool))])
            flat = (cell_chars.reshape(rows, -1), cell_mask.reshape(rows, -1))
            _emit(out, [lab, comma, flat])


def write_libsvm_dense(path, X, y, classification, decimals, chunk=20000):
    """LIBSVM lines from a dense matrix: zeros (after rounding) are omitted."""
    n, d = X.shape
    index_text = [f" {j + 1}:" for j in range(d)]
    width = max(len(t) for t in index_text)
    idx_chars = np.zeros((d, width), dtype=np.uint8)
    idx_mask = np.zeros((d, width), dtype=bool)
    for j, t in enumerate(index_text):
        idx_chars[j, : len(t)] = np.frombuffer(t.encode(), dtype=np.uint8)
        idx_mask[j, : len(t)] = True
    scale = 10**decimals
    with open(path, "wb") as out:
        for start in range(0, n, chunk):
            Xc = X[start : start + chunk]
            rows = Xc.shape[0]
            present = np.rint(np.abs(Xc) * scale) != 0
            lab = label_field(y[start : start + chunk], classification)
            ic = np.broadcast_to(idx_chars, (rows, d, width))
            im = idx_mask[None, :, :] & present[:, :, None]
            vc, vm = number_field(Xc, decimals)
            vm = vm & present[:, :, None]
            cells_c = np.concatenate([ic, vc], axis=-1).reshape(rows, -1)
            cells_m = np.concatenate([im, vm], axis=-1).reshape(rows, -1)
            nl = const_field((rows,), "\n")
            _emit(out, [lab, (cells_c, cells_m), nl])


def write_libsvm_sparse(path, indptr, indices, data, y, classification, decimals, chunk=20000):
    """LIBSVM lines from CSR arrays (0-based, sorted column indices within each row)."""
    n = len(indptr) - 1
    with open(path, "wb") as out:
        for start in range(0, n, chunk):
            stop = min(n, start + chunk)
            lo, hi = indptr[start], indptr[stop]
            rows = stop - start
            # One item per row head ("label") and one per entry (" col:val"); each row's
            # newline is the prefix of the next row's head, and the file ends with one.
            total = rows + (hi - lo)
            head_pos = np.arange(rows) + (indptr[start:stop] - lo)
            is_head = np.zeros(total, dtype=bool)
            is_head[head_pos] = True
            lab_c, lab_m = label_field(y[start:stop], classification)
            col_c, col_m = integer_field(indices[lo:hi] + 1)
            val_c, val_m = number_field(data[lo:hi], decimals)
            ent_c, ent_m = _join(
                [const_field((hi - lo,), " "), (col_c, col_m), const_field((hi - lo,), ":"), (val_c, val_m)]
            )
            nl_mask = np.arange(rows) > 0
            if start > 0:
                nl_mask[:] = True
            head_c, head_m = _join([const_field((rows,), "\n", nl_mask), (lab_c, lab_m)])
            width = max(head_c.shape[1], ent_c.shape[1])
            chars = np.zeros((total, width), dtype=np.uint8)
            mask = np.zeros((total, width), dtype=bool)
            chars[is_head, : head_c.shape[1]] = head_c
            mask[is_head, : head_m.shape[1]] = head_m
            chars[~is_head, : ent_c.shape[1]] = ent_c
            mask[~is_head, : ent_m.shape[1]] = ent_m
            out.write(chars[mask].tobytes())
        out.write(b"\n")
