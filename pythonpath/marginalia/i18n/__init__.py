"""Translation: the interface in the user's language (pure).

The user's language is LibreOffice's own UI language (office.ui_language reads it),
not the environment's. Catalogs are gettext .po files in extension/locale/, compiled by
build.py into .mo files the standard library's gettext reads; text meant for the model
(system prompt, tool descriptions, results) stays in English and is never passed here.
"""
