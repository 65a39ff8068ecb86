"""Document text logic (pure): markdown blocks and the compact document view."""
