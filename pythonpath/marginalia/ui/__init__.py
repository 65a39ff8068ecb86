"""UI logic (pure): what the panel and the Options page show, without UNO."""
