"""Inside the office (uno): main thread, settings store, chat session, panel, jobs."""
