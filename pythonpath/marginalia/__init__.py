"""Marginalia: an AI writing partner for LibreOffice Writer.

Modules without a ``uno`` import form the pure core (streaming, HTTP, the turn
loop, markdown parsing); modules whose names start with ``lo_`` are UNO glue.
"""

__version__ = "0.1.0"
