"""Code that drives an office from outside: the headless runner, install, replay."""
