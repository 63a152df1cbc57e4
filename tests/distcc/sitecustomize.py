"""Stands in for the broken part of Debian 12's distcc-pump, for the pump
test of tests/test_pipecc_distributed.py only (on the include server's
PYTHONPATH).

distcc 3.4's include server calls three functions of its C extension with
'#' argument formats, which Python 3.10 and later refuse without
PY_SSIZE_T_CLEAN (SystemError: every pump build then falls back to
preprocessing on the client; fixed in distcc after 3.4). This loads the
installed extension and replaces those three with the same operations: the
file tests of os.path, and the extension's own compression function
(dcc_compress_lzo1x_alloc, the LZO bytes distccd decompresses) called
through ctypes. Everything else is the extension's own.
"""
import ctypes
import ctypes.util
import glob
import importlib.util
import os
import sys
import types


def _install():
    paths = glob.glob("/usr/lib/python3/dist-packages/include_server/distcc_pump_c_extensions*.so")
    if not paths:
        return
    spec = importlib.util.spec_from_file_location("distcc_pump_c_extensions", paths[0])
    real = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(real)
    # The extension's own compression function, through ctypes (no '#'
    # format on the way): dcc_compress_lzo1x_alloc(in, len, &out, &out_len).
    native = ctypes.CDLL(paths[0])
    native.dcc_compress_lzo1x_alloc.argtypes = [ctypes.c_char_p, ctypes.c_size_t,
                                                ctypes.POINTER(ctypes.c_void_p), ctypes.POINTER(ctypes.c_size_t)]
    libc = ctypes.CDLL(None)
    libc.free.argtypes = [ctypes.c_void_p]

    def compress(data):
        data = data.encode("latin-1") if isinstance(data, str) else bytes(data)
        out, out_len = ctypes.c_void_p(), ctypes.c_size_t()
        if native.dcc_compress_lzo1x_alloc(data, len(data), ctypes.byref(out), ctypes.byref(out_len)) != 0:
            raise real.Error("Couldn't compress that.")
        try:
            return ctypes.string_at(out, out_len.value)
        finally:
            libc.free(out)

    shim = types.ModuleType("distcc_pump_c_extensions")
    shim.__dict__.update({k: getattr(real, k) for k in dir(real) if not k.startswith("__")})
    shim.OsPathExists = os.path.exists
    shim.OsPathIsFile = os.path.isfile
    shim.CompressLzo1xAlloc = compress
    sys.modules["distcc_pump_c_extensions"] = shim


_install()
