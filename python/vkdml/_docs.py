"""numpy-format docstrings built from shared parts: a parameter several functions take is written once."""

import textwrap as _textwrap

PARAMETERS = {
    "a": ("a : array_like", "Input array: bool or one of vkdml's 11 types."),
    "a_dml": ("a : array_like", "One of vkdml's 11 types."),
    "axes_reduced": ("axis : None or int or tuple of ints, optional",
                     "The axes searched; None (default) every element."),
    "axis_arg": ("axis : int, optional",
                 "The axis searched, which the result drops; None (default): the index into the flattened "
                 "array."),
    "axes_folded": ("axis : None or int or tuple of ints, optional",
                    "The axes reduced over; None (default) every element."),
    "dtype_fold": ("dtype : dtype, optional",
                   "The type of the result and of the computation; default as in sum and prod (small integers "
                   "widen)."),
    "axis_scan": ("axis : int, optional", "The axis; None (default) scans the flattened array."),
    "out": ("out : ndarray, optional", "Where to write the result (its shape)."),
    "keepdims": ("keepdims : bool, optional", "Keep the reduced axes, with size 1."),
    "initial": ("initial : scalar, optional",
                "A value the reduction starts from, cast to the result's type as numpy casts it: added (sum), "
                "multiplied (prod) or compared (max, min; the nan functions leave NaN out) on the host after "
                "the device's reduction; an empty slice gives it. None is no initial value, and takes a sum's "
                "or a product's identity away too: an empty slice then raises ValueError, as in numpy."),
    "keepdims_arg": ("keepdims : bool, optional",
                     "Keep the searched axis (or every axis, for axis None) with size 1."),
    "device": ("device : vkdml.Device or str, optional",
               "The device (vkdml's own keyword; default: vkdml.default_device())."),
    "device_dml": ("device : vkdml.Device or str, optional", "The device (default: vkdml.default_device())."),
    "axes_dml": ("axes : int or sequence of int, optional",
                 "The reduced axes (default: all). The index counts row-major over them in ascending order."),
    "select_last_index": ("select_last_index : bool, optional",
                          "The last of equal elements instead of the first (`AxisDirection` DECREASING)."),
    "output_type": ("output_type : dtype, optional", "One of INDEX_TYPES (default int64)."),
}


def _section(title, body):
    return f"{title}\n{'-' * len(title)}\n{body}"


def _entry(header, text):
    return header + "\n" + _textwrap.fill(text, 100, initial_indent="    ", subsequent_indent="    ")


def numpy_doc(summary, parameters, returns, examples):
    """A decorator giving a function a numpy-format docstring: the summary, Parameters (names of
    PARAMETERS or (header, text) pairs), Returns ((header, text)) and Examples (doctest lines)."""
    entries = [_entry(*(PARAMETERS[p] if isinstance(p, str) else p)) for p in parameters]
    doc = "\n\n".join([summary, _section("Parameters", "\n".join(entries)),
                       _section("Returns", _entry(*returns)), _section("Examples", examples.strip("\n"))])

    def set_doc(function):
        function.__doc__ = doc
        return function

    return set_doc
