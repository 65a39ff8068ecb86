"""Marginalia: an AI writing partner for LibreOffice Writer.

The subpackages show the three runtimes: ``chat``, ``document`` and ``ui`` are
pure Python that runs anywhere (never importing ``uno``); ``office`` and
``writer`` run inside LibreOffice; ``cli`` drives an office from outside.
``events``, ``errors`` and ``config`` are the vocabulary they all share.
"""

__version__ = "0.1.0"
