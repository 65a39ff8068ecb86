"""The chat core (pure): SSE, stream accumulation, HTTP transport, tools, the turn loop."""
