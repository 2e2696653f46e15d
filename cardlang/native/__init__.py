"""The native engine's pieces (issue 29): runtime parts compiled to machine code with numba.

numba is optional (`pip install cardlang[native]`); nothing outside this package imports it.
"""
