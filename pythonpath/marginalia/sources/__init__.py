"""Sources of a chat: files and open documents the model may search, read and cite.

Pure: the office side reads a file into ``Block``s (model.py); everything from
there on (passages, the index, the model's tools, citations and quote checks)
lives here and runs on any Python.
"""
