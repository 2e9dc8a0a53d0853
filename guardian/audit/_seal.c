/*
 * guardian.audit._seal: the audit writer's per-token hot loop in C (optional accelerator).
 *
 * Owns nothing the Python code does not also do: `seal_tokens` produces exactly the COPY lines
 * and chain hashes of `guardian.audit.rows.Sealer._tokens` (pure Python, the reference; a
 * differential test compares both on arbitrary traces), plus each record's RFC 6962 leaf hash
 * (SHA-256(0x00 || record hash)); `merkle_extend` is `guardian.audit.merkle.Frontier.extend`.
 * Numbers are formatted by CPython's own routines (str of operator.index(x) for the integer
 * columns, PyOS_double_to_string with 'g' and precision 9 for floats: what "%.9g" % x calls),
 * so the canonical text is the same byte for byte; SHA-256 is OpenSSL's libcrypto, as
 * hashlib's. Inputs are hostile-safe: the trace is copied to a tuple before Python code
 * (__index__, __float__) can run, and no foreign __str__ reaches the COPY text.
 *
 * Why: on a 2-core machine the production audit path's rate is bounded by the Python CPU it
 * spends per token row beside Postgres's own COPY work (docs/benchmarks/audit.md);
 * the pure-Python loop spent ~11 us of CPU per row on the slower machine, this ~1-2 us; its
 * "%.9g" is exact integer arithmetic (g9_fast) and its hashing runs with the GIL released.
 * Built when a C compiler and OpenSSL's headers are there (setup.py marks it optional);
 * without it the pure-Python path runs, with the same output.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
/* The low-level SHA-256 calls: OpenSSL 3 deprecates them, but EVP_DigestInit_ex looks the
 * algorithm up in the provider on every init (~1 us), more than hashing a 250-byte line. */
#define OPENSSL_SUPPRESS_DEPRECATED
#include <openssl/sha.h>
#include <limits.h>
#include <math.h>
#include <string.h>

static PyObject *s_position, *s_token_id, *s_origin, *s_draft_prob, *s_target_prob,
    *s_target_margin, *s_step, *s_gamma;
static const char *ORIGINS[] = {"accepted", "resampled", "bonus", "target", "upstream"};
static const char HEX[] = "0123456789abcdef";
static const char TAG[] = "\naudit_tokens\t";

typedef struct {
    char *p;
    Py_ssize_t len, cap;
} Buf;

static int buf_put(Buf *b, const char *s, Py_ssize_t n) {
    if (n > PY_SSIZE_T_MAX - b->len) {
        PyErr_NoMemory();
        return -1;
    }
    if (b->len + n > b->cap) {
        Py_ssize_t cap = b->cap ? b->cap : 512;
        while (cap < b->len + n) cap = cap > PY_SSIZE_T_MAX / 2 ? b->len + n : cap * 2;
        char *p = PyMem_Realloc(b->p, cap);
        if (p == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        b->p = p;
        b->cap = cap;
    }
    memcpy(b->p + b->len, s, n);
    b->len += n;
    return 0;
}

static int buf_str(Buf *b, PyObject *o) { /* str(o), UTF-8 */
    PyObject *s = PyObject_Str(o);
    if (s == NULL) return -1;
    Py_ssize_t n;
    const char *u = PyUnicode_AsUTF8AndSize(s, &n);
    int rc = u == NULL ? -1 : buf_put(b, u, n);
    Py_DECREF(s);
    return rc;
}

static int buf_ll(Buf *b, long long v) { /* decimal, as str(int) */
    char tmp[24], *end = tmp + sizeof tmp, *p = end;
    unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;
    do {
        *--p = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    if (v < 0) *--p = '-';
    return buf_put(b, p, end - p);
}

static int buf_int(Buf *b, PyObject *i) { /* str() of an exact int */
    int overflow;
    long long v = PyLong_AsLongLongAndOverflow(i, &overflow);
    if (!overflow && !(v == -1 && PyErr_Occurred())) return buf_ll(b, v);
    PyErr_Clear();
    return buf_str(b, i);
}

/* 5**p for the exact scaling below: 5**27 < 2**63. */
static const unsigned long long POW5[28] = {
    1ULL, 5ULL, 25ULL, 125ULL, 625ULL, 3125ULL, 15625ULL, 78125ULL, 390625ULL, 1953125ULL,
    9765625ULL, 48828125ULL, 244140625ULL, 1220703125ULL, 6103515625ULL, 30517578125ULL,
    152587890625ULL, 762939453125ULL, 3814697265625ULL, 19073486328125ULL, 95367431640625ULL,
    476837158203125ULL, 2384185791015625ULL, 11920928955078125ULL, 59604644775390625ULL,
    298023223876953125ULL, 1490116119384765625ULL, 7450580596923828125ULL};

/* "%.9g" % x for the common case - finite, normal, 1e-19 <= |x| < 1e9 (probabilities, logit
 * margins) - by exact integer arithmetic: x = m * 2**e2, so x * 10**p = m * 5**p * 2**(e2+p),
 * which fits 128 bits for p <= 27; its integer part and remainder give the 9 significant
 * digits correctly rounded (half to even on the exact binary value), as Python's dtoa does,
 * in a tenth of dtoa's time (dtoa was the C loop's largest single cost: three per row).
 * Writes at most 16 bytes to `out` and returns the length, or 0 where
 * PyOS_double_to_string must format (zero, subnormal, inf, nan, out of range). */
static int g9_fast(double x, char *out) {
    unsigned long long bits;
    memcpy(&bits, &x, sizeof bits);
    int biased = (int)((bits >> 52) & 0x7ff);
    if (biased == 0 || biased == 0x7ff) return 0;
    unsigned long long m = (bits & ((1ULL << 52) - 1)) | (1ULL << 52);
    int e2 = biased - 1075;
    /* k = floor(log10 |x|): this estimate is k or k - 1 (|x| >= 2**(biased - 1023)); the
     * loop moves it until the scaled value has exactly 9 integer digits. */
    int k = (int)floor((biased - 1023) * 0.30102999566398120);
    unsigned long long q = 0;
    int tries;
    for (tries = 0; tries < 3; tries++) {
        int p = 8 - k;
        if (p < 0 || p > 27) return 0;
        int shift = -(e2 + p); /* > 0 whenever the digits fit: m * 5**p >= 2**52 > 1e9 */
        if (shift <= 0) {
            k++;
            continue;
        }
        if (shift >= 127) return 0;
        unsigned __int128 v = (unsigned __int128)m * POW5[p];
        unsigned __int128 whole = v >> shift;
        if (whole < 100000000) {
            k--;
            continue;
        }
        if (whole >= 1000000000) {
            k++;
            continue;
        }
        unsigned __int128 rem = v & (((unsigned __int128)1 << shift) - 1);
        unsigned __int128 half = (unsigned __int128)1 << (shift - 1);
        q = (unsigned long long)whole;
        if (rem > half || (rem == half && (q & 1))) q++;
        if (q == 1000000000ULL) { /* 999999999.5 and up rounds to the next power of ten */
            q = 100000000ULL;
            k++;
        }
        break;
    }
    if (tries == 3 || k >= 9) return 0;
    char d[9];
    for (int i = 8; i >= 0; i--) {
        d[i] = (char)('0' + q % 10);
        q /= 10;
    }
    int nd = 9; /* %g drops trailing zeros (no '#' flag) */
    while (nd > 1 && d[nd - 1] == '0') nd--;
    char *o = out;
    if (bits >> 63) *o++ = '-';
    if (k < -4) { /* d.ddde-XX: Python's exponent has a sign and at least two digits */
        *o++ = d[0];
        if (nd > 1) {
            *o++ = '.';
            memcpy(o, d + 1, (size_t)(nd - 1));
            o += nd - 1;
        }
        int e = -k;
        *o++ = 'e';
        *o++ = '-';
        if (e >= 10) *o++ = (char)('0' + e / 10);
        else *o++ = '0';
        *o++ = (char)('0' + e % 10);
    } else if (k >= 0) { /* k + 1 integer digits, then the rest after a point */
        int ni = k + 1;
        for (int i = 0; i < ni; i++) *o++ = i < nd ? d[i] : '0';
        if (nd > ni) {
            *o++ = '.';
            memcpy(o, d + ni, (size_t)(nd - ni));
            o += nd - ni;
        }
    } else { /* -4 <= k < 0: 0.000ddd */
        *o++ = '0';
        *o++ = '.';
        for (int i = 0; i < -k - 1; i++) *o++ = '0';
        memcpy(o, d, (size_t)nd);
        o += nd;
    }
    return (int)(o - out);
}

static int buf_g9(Buf *b, PyObject *o) { /* "%.9g" % o */
    double x = PyFloat_AsDouble(o);
    if (x == -1.0 && PyErr_Occurred()) return -1;
    char fast[24];
    int n = g9_fast(x, fast);
    if (n > 0) return buf_put(b, fast, n);
    char *s = PyOS_double_to_string(x, 'g', 9, 0, NULL);
    if (s == NULL) return -1;
    int rc = buf_put(b, s, (Py_ssize_t)strlen(s));
    PyMem_Free(s);
    return rc;
}

PyDoc_STRVAR(format_g9_doc,
"format_g9(x) -> str\n\n"
"\"%.9g\" % x as the sealing loop writes it (exact integer path or CPython's dtoa): exposed\n"
"so the tests can compare it with Python's own formatting on arbitrary floats.");

static PyObject *format_g9(PyObject *self, PyObject *arg) {
    Buf b = {NULL, 0, 0};
    if (buf_g9(&b, arg) < 0) {
        PyMem_Free(b.p);
        return NULL;
    }
    PyObject *s = PyUnicode_DecodeASCII(b.p, b.len, "strict");
    PyMem_Free(b.p);
    return s;
}

static void to_hex(const unsigned char *d, char *out) {
    for (int i = 0; i < 32; i++) {
        out[2 * i] = HEX[d[i] >> 4];
        out[2 * i + 1] = HEX[d[i] & 15];
    }
}

static void sha256(const void *a, size_t na, const void *b2, size_t nb, const void *c,
                   size_t nc, unsigned char *out) {
    SHA256_CTX ctx;
    SHA256_Init(&ctx);
    SHA256_Update(&ctx, a, na);
    if (nb) SHA256_Update(&ctx, b2, nb);
    if (nc) SHA256_Update(&ctx, c, nc);
    SHA256_Final(out, &ctx);
}

/* "\t" prev "\t" hash "\n" after each canonical line: 131 bytes. */
#define SUFFIX 131
static const char SUFFIX_ROOM[SUFFIX] = {0};

/* The second pass of seal_tokens, with no Python object and no GIL: `buf` holds n lines,
 * line i ending at ends[i] with SUFFIX bytes of room after it (the next line starts there).
 * hash = SHA-256(prev || "\naudit_tokens\t" || line); the room gets "\tprev\thash\n" and
 * leaves[32 i..] the RFC 6962 leaf hash SHA-256(0x00 || hash); `prev` ends as the last hash. */
static void chain(char *buf, const Py_ssize_t *ends, Py_ssize_t n, char prev[64],
                  unsigned char *leaves) {
    static const unsigned char zero = 0;
    unsigned char digest[32];
    char hex[64];
    Py_ssize_t start = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        char *end = buf + ends[i];
        sha256(prev, 64, TAG, sizeof TAG - 1, buf + start, (size_t)(ends[i] - start), digest);
        sha256(&zero, 1, digest, 32, NULL, 0, leaves + 32 * i);
        to_hex(digest, hex);
        end[0] = '\t';
        memcpy(end + 1, prev, 64);
        end[65] = '\t';
        memcpy(end + 66, hex, 64);
        end[130] = '\n';
        memcpy(prev, hex, 64);
        start = ends[i] + SUFFIX;
    }
}

/* A field read off a TokenTrace, owned. */
static PyObject *field(PyObject *t, PyObject *name) { return PyObject_GetAttr(t, name); }

PyDoc_STRVAR(seal_tokens_doc,
"seal_tokens(prefix, seq, prev, trace, mode, token_hashes) -> (text, leaves, prev, seq)\n\n"
"The COPY text (one line per record: canonical line, prev hash, hash, newline; one str) and\n"
"the RFC 6962 leaf hashes of the token records of one trace, chained from (seq, prev).\n"
"`prefix`: the escaped chain id, request id, timestamp and source, each followed by a tab.\n"
"`mode`: 0 = no token id or hash (\\N \\N), 1 = str(int(token_id)), 2 = token_hashes[i]\n"
"(a str per token). The hashes are chained with the GIL released.");

static PyObject *seal_tokens(PyObject *self, PyObject *args) {
    PyObject *prefix, *trace, *hashes, *seq_obj;
    const char *prev_in;
    Py_ssize_t prev_len;
    int mode;
    if (!PyArg_ParseTuple(args, "UO!s#OiO:seal_tokens", &prefix, &PyLong_Type, &seq_obj,
                          &prev_in, &prev_len, &trace, &mode, &hashes))
        return NULL;
    if (prev_len != 64) {
        PyErr_SetString(PyExc_ValueError, "prev must be a 64-character hex hash");
        return NULL;
    }
    if (mode < 0 || mode > 2) {
        PyErr_SetString(PyExc_ValueError, "mode must be 0, 1 or 2");
        return NULL;
    }
    long long seq = PyLong_AsLongLong(seq_obj);
    if (seq == -1 && PyErr_Occurred()) return NULL;
    if (seq < 0) {
        PyErr_SetString(PyExc_ValueError, "seq must not be negative");
        return NULL;
    }
    Py_ssize_t pre_len;
    const char *pre = PyUnicode_AsUTF8AndSize(prefix, &pre_len);
    if (pre == NULL) return NULL;
    /* Tuples (copies when given lists): attribute reads and number conversions can run
     * Python code, which must not be able to shrink or free what the loop walks. */
    PyObject *items = PySequence_Tuple(trace);
    if (items == NULL) return NULL;
    Py_ssize_t n = PyTuple_GET_SIZE(items);
    if ((long long)n > LLONG_MAX - seq) { /* the Python loop (arbitrary ints) takes these */
        Py_DECREF(items);
        PyErr_SetString(PyExc_OverflowError, "seq out of range");
        return NULL;
    }
    PyObject *th = NULL;
    if (mode == 2) {
        th = hashes == Py_None ? NULL : PySequence_Tuple(hashes);
        if (th == NULL || PyTuple_GET_SIZE(th) != n) {
            Py_DECREF(items);
            Py_XDECREF(th);
            if (!PyErr_Occurred() || PyErr_ExceptionMatches(PyExc_TypeError)) {
                PyErr_Clear();
                PyErr_SetString(PyExc_ValueError, "mode 2 needs one token hash per token");
            }
            return NULL;
        }
    }
    /* One str for the trace's lines, not one per line: a str object per row, the list
     * holding them, and joining them again for the COPY cost as much CPU as formatting the
     * rows (and the cyclic GC walked those lists while they were young). */
    /* The leaves list is made only once its items exist: a list of NULL slots must not be
     * reachable (gc.get_objects()) while Python code runs (__float__, __index__) or while the
     * GIL is released. */
    PyObject *text = NULL, *leaves = NULL;
    Buf b = {NULL, 0, 0};
    char prev[64];
    memcpy(prev, prev_in, 64);
    /* Two passes. The first (GIL held) reads the trace and formats each canonical line,
     * leaving room for its "\tprev\thash\n" suffix; the second chains the hashes and leaves
     * with the GIL released (pure C over this call's own buffers), so the audit's DB threads
     * run their Python while this one hashes: a sealer holding the GIL for all its work kept
     * them waiting for it (the switch interval) at every step of their COPY, and Postgres
     * waited on them. */
    Py_ssize_t *ends = n ? PyMem_New(Py_ssize_t, n) : NULL;
    unsigned char *leaf_bytes = n ? PyMem_Malloc((size_t)n * 32) : NULL;
    if (n && (ends == NULL || leaf_bytes == NULL)) {
        if (!PyErr_Occurred()) PyErr_NoMemory();
        goto fail;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *t = PyTuple_GET_ITEM(items, i), *v;
        /* Checked and converted in the Python loop's order (the same error for the same bad
         * trace): origin, int(token_id), index() of position, step, gamma, then the floats. */
        if ((v = field(t, s_origin)) == NULL) goto fail;
        const char *origin = NULL;
        if (PyUnicode_CheckExact(v))
            for (size_t k = 0; k < sizeof ORIGINS / sizeof *ORIGINS; k++)
                if (PyUnicode_CompareWithASCIIString(v, ORIGINS[k]) == 0) origin = ORIGINS[k];
        if (origin == NULL) {
            PyErr_Format(PyExc_ValueError, "unknown token origin %R", v);
            Py_DECREF(v);
            goto fail;
        }
        Py_DECREF(v);
        PyObject *ints[4] = {NULL, NULL, NULL, NULL}; /* token_id, position, step, gamma */
        int rc = -1;
        if (mode == 1) {
            if ((v = field(t, s_token_id)) == NULL) goto fail;
            ints[0] = PyNumber_Long(v);
            Py_DECREF(v);
            if (ints[0] == NULL) goto fail;
        }
        PyObject *names[3] = {s_position, s_step, s_gamma};
        for (int k = 0; k < 3; k++) {
            if ((v = field(t, names[k])) == NULL) goto fail_ints;
            ints[k + 1] = PyNumber_Index(v); /* an exact int: no foreign str() in the text */
            Py_DECREF(v);
            if (ints[k + 1] == NULL) goto fail_ints;
        }
        if (buf_put(&b, pre, pre_len) < 0 || buf_ll(&b, seq) < 0 || buf_put(&b, "\t", 1) < 0
            || buf_int(&b, ints[1]) < 0 || buf_put(&b, "\t", 1) < 0)
            goto fail_ints;
        if (mode == 1) { /* token_id, token_hash */
            if (buf_int(&b, ints[0]) < 0 || buf_put(&b, "\t\\N\t", 4) < 0) goto fail_ints;
        } else if (mode == 2) {
            if (buf_put(&b, "\\N\t", 3) < 0 || buf_str(&b, PyTuple_GET_ITEM(th, i)) < 0
                || buf_put(&b, "\t", 1) < 0)
                goto fail_ints;
        } else if (buf_put(&b, "\\N\t\\N\t", 6) < 0) {
            goto fail_ints;
        }
        if (buf_put(&b, origin, (Py_ssize_t)strlen(origin)) < 0 || buf_put(&b, "\t", 1) < 0)
            goto fail_ints;
        /* draft_prob (None -> \N), target_prob, target_margin */
        if ((v = field(t, s_draft_prob)) == NULL) goto fail_ints;
        rc = v == Py_None ? buf_put(&b, "\\N", 2) : buf_g9(&b, v);
        Py_DECREF(v);
        if (rc < 0 || (rc = buf_put(&b, "\t", 1)) < 0) goto fail_ints;
        PyObject *floats[2] = {s_target_prob, s_target_margin};
        for (int k = 0; k < 2; k++) {
            if ((v = field(t, floats[k])) == NULL) goto fail_ints;
            rc = buf_g9(&b, v);
            Py_DECREF(v);
            if (rc < 0 || (rc = buf_put(&b, "\t", 1)) < 0) goto fail_ints;
        }
        rc = buf_int(&b, ints[2]) < 0 || buf_put(&b, "\t", 1) < 0 || buf_int(&b, ints[3]) < 0
             ? -1 : 0;
    fail_ints:
        for (int k = 0; k < 4; k++) Py_XDECREF(ints[k]);
        if (rc < 0) goto fail;
        ends[i] = b.len;
        if (buf_put(&b, SUFFIX_ROOM, SUFFIX) < 0) goto fail; /* filled by the second pass */
        seq++;
    }
    if (n) {
        Py_BEGIN_ALLOW_THREADS
        chain(b.p, ends, n, prev, leaf_bytes);
        Py_END_ALLOW_THREADS
    }
    if ((leaves = PyList_New(n)) == NULL) goto fail;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *lf = PyBytes_FromStringAndSize((const char *)leaf_bytes + 32 * i, 32);
        if (lf == NULL) goto fail;
        PyList_SET_ITEM(leaves, i, lf);
    }
    text = PyUnicode_DecodeUTF8(b.p ? b.p : "", b.len, "strict");
    if (text == NULL) goto fail;
    PyMem_Free(b.p);
    PyMem_Free(ends);
    PyMem_Free(leaf_bytes);
    Py_DECREF(items);
    Py_XDECREF(th);
    return Py_BuildValue("(NNs#L)", text, leaves, prev, (Py_ssize_t)64, seq);
fail:
    PyMem_Free(b.p);
    PyMem_Free(ends);
    PyMem_Free(leaf_bytes);
    Py_DECREF(items);
    Py_XDECREF(th);
    Py_XDECREF(leaves);
    return NULL;
}

PyDoc_STRVAR(merkle_extend_doc,
"merkle_extend(peaks, size, leaves) -> size\n\n"
"Append leaf hashes to a compact range in place (guardian.audit.merkle.Frontier.extend):\n"
"`peaks` is the list of 32-byte subtree hashes of a range of `size` leaves.");

static PyObject *merkle_extend(PyObject *self, PyObject *args) {
    PyObject *peaks, *leaves, *size_obj;
    if (!PyArg_ParseTuple(args, "O!O!O:merkle_extend", &PyList_Type, &peaks, &PyLong_Type,
                          &size_obj, &leaves))
        return NULL;
    unsigned long long size = PyLong_AsUnsignedLongLong(size_obj);
    if (size == (unsigned long long)-1 && PyErr_Occurred()) return NULL;
    /* Work on a copy of the compact range (at most 64 subtrees) and replace `peaks` only
     * once every input was checked and every hash made: an error leaves it as it was. */
    unsigned char stack[65][32];
    Py_ssize_t k = PyList_GET_SIZE(peaks);
    if (k != __builtin_popcountll(size)) {
        PyErr_Format(PyExc_ValueError, "a compact range of %llu leaves has %d subtrees, not %zd",
                     size, __builtin_popcountll(size), k);
        return NULL;
    }
    for (Py_ssize_t j = 0; j < k; j++) {
        PyObject *p = PyList_GET_ITEM(peaks, j);
        if (!PyBytes_Check(p) || PyBytes_GET_SIZE(p) != 32) {
            PyErr_SetString(PyExc_ValueError, "a peak hash is 32 bytes");
            return NULL;
        }
        memcpy(stack[j], PyBytes_AS_STRING(p), 32);
    }
    PyObject *items = PySequence_Tuple(leaves);
    if (items == NULL) return NULL;
    Py_ssize_t n = PyTuple_GET_SIZE(items);
    if ((unsigned long long)n > ~0ULL - size) {
        Py_DECREF(items);
        PyErr_SetString(PyExc_OverflowError, "too many leaves");
        return NULL;
    }
    static const unsigned char one = 1;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *lf = PyTuple_GET_ITEM(items, i);
        if (!PyBytes_Check(lf) || PyBytes_GET_SIZE(lf) != 32) {
            Py_DECREF(items);
            PyErr_SetString(PyExc_ValueError, "a leaf hash is 32 bytes");
            return NULL;
        }
        unsigned char h[32];
        memcpy(h, PyBytes_AS_STRING(lf), 32);
        for (unsigned long long m = size; m & 1; m >>= 1) /* merge equal-sized subtrees */
            sha256(&one, 1, stack[--k], 32, h, 32, h);
        memcpy(stack[k++], h, 32);
        size++;
    }
    Py_DECREF(items);
    PyObject *out = PyList_New(k);
    if (out == NULL) return NULL;
    for (Py_ssize_t j = 0; j < k; j++) {
        PyObject *hb = PyBytes_FromStringAndSize((const char *)stack[j], 32);
        if (hb == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, j, hb);
    }
    int rc = PyList_SetSlice(peaks, 0, PyList_GET_SIZE(peaks), out);
    Py_DECREF(out);
    return rc < 0 ? NULL : PyLong_FromUnsignedLongLong(size);
}

static PyMethodDef methods[] = {
    {"seal_tokens", seal_tokens, METH_VARARGS, seal_tokens_doc},
    {"merkle_extend", merkle_extend, METH_VARARGS, merkle_extend_doc},
    {"format_g9", format_g9, METH_O, format_g9_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "guardian.audit._seal",
    "The audit writer's per-token hot loop in C (optional; guardian.audit.rows is the "
    "reference).", -1, methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__seal(void) {
#define INTERN(var, name) \
    if ((var = PyUnicode_InternFromString(name)) == NULL) return NULL;
    INTERN(s_position, "position");
    INTERN(s_token_id, "token_id");
    INTERN(s_origin, "origin");
    INTERN(s_draft_prob, "draft_prob");
    INTERN(s_target_prob, "target_prob");
    INTERN(s_target_margin, "target_margin");
    INTERN(s_step, "step");
    INTERN(s_gamma, "gamma");
    return PyModule_Create(&module);
}
